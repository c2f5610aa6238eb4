/**
 * The context view over real records and captures written to a real HARNESS_HOME
 * (lib/playground/context_view.ts): tokens shared out from the provider's count, the cached part
 * marked, and the prefix diff — the first turn, the designed place to differ (the previous
 * volatile tail), a break inside the stable prefix with the differing text shown, identical
 * requests, and what whole-part hashes can still say when no text was captured.
 */
import assert from "node:assert/strict";
import { sha256HexAsync } from "../../lib/base/sha256.ts";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { readCapture, writeCapture } from "../../lib/home/request_capture.ts";
import { contextView } from "../../lib/playground/context_view.ts";
import { turnInput, withHome } from "../home/records/fixture.ts";

const TIMELINE = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
const TOOLS = '{"name":"messages","description":"Post.","parameters":{}}';
const CHARTER = "<system>\nYou are Vega, a careful peer.";

/** A request's parts: name → text (the capture's form). */
type Parts = [name: string, text: string][];

function request(transcript: string, brief: string, newTurn: string, charter = CHARTER): Parts {
  return [
    ["tools", TOOLS],
    ["charter", charter],
    ["transcript", transcript],
    ["brief", brief],
    ["recall", ""],
    ["working_state", ""],
    ["new_turn", newTurn],
  ];
}

/** Appends turn `i`'s record with `parts` as its anatomy, and (unless `capture` is false) its capture. */
async function turn(
  home: string,
  i: number,
  parts: Parts,
  firstCall: Record<string, number> | undefined,
  capture = true,
) {
  const hashed = await Promise.all(
    parts.map(async ([name, text]) => ({ name, text, sha256: await sha256HexAsync(text) })),
  );
  const record = await appendTurnRecord(home, {
    ...turnInput(i, { timeline: TIMELINE }),
    context: {
      parts: hashed.map(({ name, text, sha256 }) => ({ name, chars: text.length, sha256 })),
      first_call: firstCall,
    },
  });
  if (capture) {
    await writeCapture(home, {
      recordId: record.record_id,
      timeline: TIMELINE,
      wakeId: record.wake_id,
      parts: hashed,
    });
  }
  return record;
}

const BRIEF = "<system>\nCurrent Time: 2026-12-01 10:00:00 UTC";
const ASK = "<user>\n[2026-12-01T10:00:00Z] ada: @vega hello";

Deno.test("context view: parts in request order, tokens from the provider's count, the cached part marked", async () => {
  await withHome(async (home) => {
    const first = await turn(home, 1, request("", BRIEF, ASK), {
      tokens_in: 100,
      cached_tokens: 40,
    });
    const [view] = await contextView(home, TIMELINE, [first.record_id]);
    assert.deepEqual(view.parts.map((p) => p.name), [
      "tools",
      "charter",
      "transcript",
      "brief",
      "recall",
      "working_state",
      "new_turn",
    ]);
    assert.equal(view.tokenSource, "provider");
    assert.equal(view.totalChars, TOOLS.length + CHARTER.length + BRIEF.length + ASK.length);
    // 100 tokens shared out by characters: the tools hold about half of them.
    const tools = view.parts[0];
    assert.equal(tools.tokens, Math.round((TOOLS.length * 100) / view.totalChars));
    assert.equal(tools.cached, "all"); // the first 40 tokens are the tools'…
    assert.equal(view.parts[1].cached, "part"); // …and part of the charter
    assert.equal(view.parts[6].cached, "none");
    assert.equal(view.parts[0].text, TOOLS);
    assert.equal(view.diff.kind, "first");
    assert.equal(view.captured, true);
  });
});

Deno.test("context view: without a provider count, tokens are estimated at 4 characters each", async () => {
  await withHome(async (home) => {
    const first = await turn(home, 1, request("", BRIEF, ASK), undefined);
    const [view] = await contextView(home, TIMELINE, [first.record_id]);
    assert.equal(view.tokenSource, "chars/4");
    assert.equal(view.cachedTokens, null);
    assert.equal(view.parts[0].tokens, Math.ceil(TOOLS.length / 4));
    assert.ok(view.parts.every((p) => p.cached === "none"));
  });
});

Deno.test("prefix diff: the next wake differs where the previous request's volatile tail began", async () => {
  await withHome(async (home) => {
    await turn(home, 1, request("", BRIEF, ASK), { tokens_in: 100, cached_tokens: 0 });
    // The next request's transcript is the previous one's new turn and the reply.
    const transcript = `${ASK}\n<assistant>\nHello!`;
    const second = await turn(
      home,
      2,
      request(transcript, BRIEF.replace("10:00", "10:05"), "<user>\n… ada: thanks"),
      { tokens_in: 120, cached_tokens: 80 },
    );
    const [view] = await contextView(home, TIMELINE, [second.record_id]);
    const diff = view.diff;
    assert.equal(diff.kind, "tail");
    assert.equal(diff.previous?.seq, 1);
    assert.equal(diff.previous?.delivery, "delivery-1");
    // Shared: the tools and the charter; the previous request then went on with its brief.
    assert.equal(diff.offset, TOOLS.length + CHARTER.length + 1);
    assert.equal(diff.part, "transcript");
    assert.equal(diff.previousPart, "brief");
    assert.ok(diff.before?.startsWith("system>\nCurrent Time"), diff.before ?? "");
    assert.ok(diff.after?.startsWith("user>\n[2026"), diff.after ?? "");
    assert.deepEqual(diff.sameParts, ["tools", "charter", "recall", "working_state"]);
  });
});

Deno.test("prefix diff: a changed charter line breaks the prefix there, and both texts show it", async () => {
  await withHome(async (home) => {
    await turn(home, 1, request("", BRIEF, ASK), { tokens_in: 100, cached_tokens: 0 });
    const edited = `${CHARTER}\nAlways answer in French.`;
    const second = await turn(home, 2, request("", BRIEF, ASK, edited), {
      tokens_in: 110,
      cached_tokens: 0,
    });
    const [view] = await contextView(home, TIMELINE, [second.record_id]);
    assert.equal(view.diff.kind, "break");
    assert.equal(view.diff.part, "charter");
    assert.equal(view.diff.previousPart, "brief");
    assert.equal(view.diff.offset, TOOLS.length + CHARTER.length);
    assert.ok(view.diff.after?.startsWith("\nAlways answer in French."), view.diff.after ?? "");
    assert.ok(view.diff.shared?.endsWith("a careful peer."), view.diff.shared ?? "");
    assert.ok(!view.diff.sameParts.includes("charter"));
  });
});

Deno.test("prefix diff: identical requests; and, without captured text, whole parts by hash", async () => {
  await withHome(async (home) => {
    await turn(home, 1, request("", BRIEF, ASK), undefined);
    const same = await turn(home, 2, request("", BRIEF, ASK), undefined);
    assert.equal((await contextView(home, TIMELINE, [same.record_id]))[0].diff.kind, "identical");

    // No text captured: a changed tool declaration is still named, by its hash…
    const changedTools = request("", BRIEF, ASK);
    changedTools[0] = ["tools", TOOLS.replace("Post.", "Post a message.")];
    const third = await turn(home, 3, changedTools, undefined, false);
    const [view] = await contextView(home, TIMELINE, [third.record_id]);
    assert.equal(view.captured, false);
    assert.equal(view.parts[0].text, null);
    assert.equal(view.diff.kind, "break");
    assert.equal(view.diff.part, "tools");
    assert.equal(view.diff.offset, null);
    // …and with the stable parts unchanged, the rest cannot be told without the text.
    const fourth = await turn(home, 4, changedTools, undefined, false);
    assert.equal((await contextView(home, TIMELINE, [fourth.record_id]))[0].diff.kind, "unknown");
  });
});

Deno.test("context view: a record without an anatomy (an older record) is left out", async () => {
  await withHome(async (home) => {
    const old = await appendTurnRecord(home, turnInput(1, { timeline: TIMELINE }));
    assert.deepEqual(await contextView(home, TIMELINE, [old.record_id]), []);
  });
});

Deno.test("context view: a wake's turns read each capture once, though each is the next one's previous", async () => {
  await withHome(async (home) => {
    const first = await turn(home, 1, request("", BRIEF, ASK), undefined);
    const second = await turn(home, 2, request("a", BRIEF, ASK), undefined);
    const third = await turn(home, 3, request("ab", BRIEF, ASK), undefined);
    const reads: string[] = [];
    const views = await contextView(
      home,
      TIMELINE,
      [first.record_id, second.record_id, third.record_id],
      (h, t, id) => {
        reads.push(id);
        return readCapture(h, t, id);
      },
    );
    assert.deepEqual(views.map((v) => v.captured), [true, true, true]);
    assert.deepEqual(views.map((v) => v.diff.kind), ["first", "tail", "tail"]);
    assert.deepEqual(reads.sort(), [first.record_id, second.record_id, third.record_id].sort());
  });
});
