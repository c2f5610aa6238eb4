/**
 * The recovery table (docs/operating.md#the-delivery-guarantee) as pure decisions over a
 * transcript, plus the pass itself over real claim files: turn lookup, turn-state classification,
 * summary-destroyed ⇒ abandon, "a turn that already acted is not nudged" on resume, and no
 * resume over a daily budget limit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INTERRUPTED } from "../../lib/core/transcript/heal.ts";
import type { Message } from "../../lib/core/types/message.ts";
import { FileSessionStore } from "../../lib/core/transcript/session.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { actedIn, findTurn, recoverItems, summarized, turnState } from "../../lib/wake/recovery.ts";
import { SUMMARY_MARKER } from "../../lib/core/types/summary_marker.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { resolveBudget } from "../../lib/config/spending.ts";
import { chargeDay, utcDay } from "../../lib/home/budget.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";

const TL = "01900000-0000-7000-8000-000000000001";
const user = (content: string, items?: string[], injected?: boolean): Message => ({
  role: "user",
  content,
  ...(items ? { items } : {}),
  ...(injected ? { injected } : {}),
});
const sys = (content: string, items?: string[]): Message => ({
  role: "system",
  content,
  ...(items ? { items } : {}),
});
const say = (content: string): Message => ({ role: "assistant", content });
const call = (id: string, name: string, args: Record<string, unknown>): Message => ({
  role: "assistant",
  toolCalls: [{ id, name, arguments: args }],
});
const result = (id: string, content: string): Message => ({
  role: "tool",
  toolCallId: id,
  content,
});

Deno.test("findTurn: the user turn carrying the uuid, its work up to the next real user turn", () => {
  const t = [
    user("a", ["m1"]),
    sys("Step 1 of 24."),
    call("c0", "assets", { action: "view" }),
    result("c0", "ok"),
    user("(Showing image: x)", undefined, true), // injected: part of the turn's work
    say("done"),
    user("b", ["m2", "m3"]),
    say("ok"),
  ];
  assert.deepEqual(findTurn(t, "m1"), { start: 0, end: 6 });
  assert.deepEqual(findTurn(t, "m3"), { start: 6, end: 8 });
  assert.equal(findTurn(t, "nope"), undefined);
  // An injected turn never counts as the item's turn, even if it lists the uuid.
  assert.equal(findTurn([user("x", ["m9"], true)], "m9"), undefined);
  // The newest turn carrying the uuid wins (a re-driven item after an excised one).
  assert.deepEqual(findTurn([user("a", ["m1"]), say("x"), user("a", ["m1"])], "m1"), {
    start: 2,
    end: 3,
  });
});

Deno.test("turnState: the delivery-guarantee classification", () => {
  const state = (work: Message[]) =>
    turnState([user("u", ["m"]), ...work], { start: 0, end: work.length + 1 });
  // Died inside the model call: nothing but the step counter.
  assert.equal(state([]), "in-model-call");
  assert.equal(state([sys("Current Time: x\n\nStep 1 of 24.")]), "in-model-call");
  // Tool calls, no terminal text.
  assert.equal(state([call("c0", "messages", { action: "create", body: "hi" })]), "mid-tools");
  assert.equal(
    state([call("c0", "messages", { action: "create", body: "hi" }), result("c0", "Posted")]),
    "mid-tools",
  );
  // Ends in assistant text with no calls.
  assert.equal(
    state([call("c0", "messages", { action: "create" }), result("c0", "Posted"), say("Done.")]),
    "completed",
  );
  assert.equal(state([say("Nothing to add.")]), "completed");
  // An empty assistant text is not a terminal narration.
  assert.equal(state([say("")]), "in-model-call");
  assert.equal(
    state([call("c0", "users", { action: "list" }), result("c0", "x"), say("")]),
    "mid-tools",
  );
});

Deno.test("summarized: only a compaction summary's items count", () => {
  const t = [
    sys(`${SUMMARY_MARKER}: 3 messages replaced]\n\nnotes`, ["m1"]),
    sys("charter", ["m2"]),
  ];
  assert.ok(summarized(t, "m1"));
  assert.ok(!summarized(t, "m2"));
  assert.ok(!summarized(t, "m3"));
});

Deno.test("actedIn: a posted create counts; the sentinel, an error or a read does not", () => {
  const span = (work: Message[]) =>
    [[user("u", ["m"]), ...work], { start: 0, end: work.length + 1 }] as const;
  const check = (work: Message[]) => actedIn(...span(work));
  assert.ok(
    check([
      call("c0", "messages", { action: "create", body: "x" }),
      result("c0", "Posted to timeline t."),
    ]),
  );
  assert.ok(check([call("c0", "tasks", { action: "create" }), result("c0", "Scheduled a task.")]));
  assert.ok(
    !check([call("c0", "messages", { action: "create", body: "x" }), result("c0", INTERRUPTED)]),
  );
  assert.ok(!check([call("c0", "messages", { action: "create", body: "x" })]));
  assert.ok(
    !check([
      call("c0", "messages", { action: "create" }),
      result("c0", "Error: 'create' needs a 'body'"),
    ]),
  );
  assert.ok(
    !check([
      call("c0", "messages", { action: "create", body: "x" }),
      result("c0", "Couldn't create a message: 403"),
    ]),
  );
  assert.ok(!check([call("c0", "messages", { action: "list" }), result("c0", "Messages …")]));
});

/** A wake just real enough for the recovery pass: claims, transcript, journal. */
async function fakeWake(messages: Message[]) {
  const home = await Deno.makeTempDir({ prefix: "recovery-" });
  const journal = new MemoryJournal();
  const wake = {
    settings: { home, timeline: TL },
    claims: new ClaimStore(home, { journal }),
    store: new FileSessionStore(join(home, "sessions")),
    journal,
    messages,
  } as unknown as Wake;
  return { home, journal, wake };
}

const spec = () => {
  throw new Error("a resume is not expected here");
};

Deno.test("recoverItems: summary-destroyed ⇒ abandoned; no turn ⇒ re-drive; finished ⇒ commit; live ⇒ untouched", async () => {
  const { home, journal, wake } = await fakeWake([
    sys(`${SUMMARY_MARKER}: 4 messages replaced]\n\nnotes`, ["gone"]),
    user("[t] bob: finished", ["done-turn"]),
    say("Answered already."),
    user("[t] bob: died in the call", ["in-call"]),
  ]);
  try {
    const dead = new ClaimStore(home, { pid: 2 ** 22 + 12345 }); // no such pid
    for (const uuid of ["gone", "unseen", "done-turn", "in-call"]) {
      await dead.claim("messages", TL, uuid);
    }
    // pid 1 is always alive: a wake that is still running elsewhere.
    await new ClaimStore(home, { pid: 1 }).claim("messages", TL, "live");
    const verdicts = await recoverItems(
      wake,
      "messages",
      ["gone", "unseen", "done-turn", "in-call", "live", "never-claimed"].map((uuid) => ({
        uuid,
        handle: "bob",
        spec,
      })),
    );
    assert.deepEqual(Object.fromEntries(verdicts), {
      gone: "final",
      unseen: "redrive",
      "done-turn": "final",
      "in-call": "redrive",
    });
    const phase = async (u: string) => (await wake.claims.read("messages", TL, u))?.phase;
    assert.equal(await phase("gone"), "abandoned");
    assert.equal(await phase("done-turn"), "done");
    assert.equal(await phase("unseen"), "in-flight"); // now held by this wake
    assert.equal((await wake.claims.read("messages", TL, "unseen"))?.wake, wake.claims.wakeId);
    assert.equal(
      (await wake.claims.read("messages", TL, "live"))?.wake !== wake.claims.wakeId,
      true,
    );
    const lines = journal.lines.join("\n");
    assert.match(lines, /ERROR dropped item=gone kind=message timeline=\S+ handle=bob reason=/);
    assert.match(
      lines,
      /WARNING re-driving item=unseen .*reason="the wake died before the model ever saw it"/,
    );
    assert.match(lines, /INFO recovered item=done-turn kind=message .*action=turn-completed/);
    assert.match(
      lines,
      /WARNING re-driving item=in-call .*reason="the wake died inside the model call"/,
    );
    // The dead turn was excised; the finished one stays.
    assert.equal(findTurn(wake.messages, "in-call"), undefined);
    assert.ok(findTurn(wake.messages, "done-turn"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("recoverItems: over a daily budget limit a dead wake's turn is not resumed; it stays pending", async () => {
  const { home, journal, wake } = await fakeWake([
    user("[t] bob: hello", ["mid"]),
    call("c0", "messages", { action: "list" }),
    result("c0", "Messages …"),
  ]);
  Object.assign(wake, {
    budget: resolveBudget({ tokens_per_day: 10 }),
    budgetWall: false,
    spent: { usd: 0, tokens: 0 },
    escalation: { on: [] },
  });
  try {
    await chargeDay(home, utcDay(new Date()), { timeline: TL, usd: 0, tokens: 10 });
    await new ClaimStore(home, { pid: 2 ** 22 + 12345 }).claim("messages", TL, "mid");
    // `spec` throws: a resume (a model call) would fail the test.
    const verdicts = await recoverItems(wake, "messages", [{ uuid: "mid", handle: "bob", spec }]);
    assert.deepEqual(Object.fromEntries(verdicts), { mid: "pending" });
    assert.equal(wake.budgetWall, true);
    // Taken over in this wake's name, still in flight: the first wake after the reset resumes it.
    const claim = await wake.claims.read("messages", TL, "mid");
    assert.deepEqual([claim?.phase, claim?.wake], ["in-flight", wake.claims.wakeId]);
    assert.match(journal.lines.join("\n"), /WARNING Budget guard EXHAUSTED/);
    assert.doesNotMatch(journal.lines.join("\n"), /resuming/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
