import assert from "node:assert/strict";
import {
  cutIndex,
  droppedItems,
  isBoundary,
  messageChars,
  preludeEnd,
  pruneSummaryItems,
  renderRegion,
  summaryText,
  transcriptChars,
} from "../../lib/core/compaction/cut.ts";
import { SUMMARY_MARKER } from "../../lib/core/types/summary_marker.ts";
import { Message } from "../../lib/core/types/message.ts";

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  id,
  name,
  arguments: args,
});

/** A charter, then three peer turns; the middle one ran a tool that showed an image. */
function transcript(): Message[] {
  return [
    Message.system("charter"),
    Message.user("[t1] ann: hello", { items: ["u1"] }),
    Message.assistant({ content: "hi" }),
    Message.user("[t2] ann: look at this", { items: ["u2"] }),
    Message.assistant({ toolCalls: [call("c1", "view", { asset: "a1" })] }),
    Message.tool("c1", "viewed 1 image(s)"),
    Message.user("(Showing image: cat.png)", { injected: true }),
    Message.assistant({ content: "a cat" }),
    Message.user("[t3] ann: thanks", { items: ["u3"] }),
    Message.assistant({ content: "welcome" }),
  ];
}

/** Whether every tool result in `tail` follows, inside its run, the assistant turn calling it. */
function wellFormed(tail: readonly Message[]): boolean {
  let open = new Set<string>();
  for (const message of tail) {
    if (message.role === "assistant") open = new Set(message.toolCalls?.map((c) => c.id));
    if (message.role === "tool" && !open.has(message.toolCallId ?? "")) return false;
  }
  return true;
}

Deno.test("cut: sizes count content, call names and JSON arguments in code points", () => {
  const message = Message.assistant({
    content: "日本😀",
    toolCalls: [call("c", "memo", { text: "é" })],
  });
  // "日本😀" is 3; "memo" 4; {"text": "é"} is 13 as json.dumps writes it (ensure_ascii=False).
  assert.equal(messageChars(message), 3 + 4 + 13);
  assert.equal(transcriptChars([message, Message.user("ab")]), 22);
});

Deno.test("cut: the prelude is the charter, never a previous summary", () => {
  const summary = Message.system(summaryText(3, "notes"));
  assert.equal(preludeEnd(transcript()), 1);
  assert.equal(preludeEnd([summary, Message.user("x")]), 0);
  assert.equal(preludeEnd([Message.system("a"), Message.system("b"), summary]), 2);
  assert.equal(preludeEnd([]), 0);
});

Deno.test("cut: a cut never lands after an injected user turn", () => {
  const messages = transcript();
  const injected = messages.findIndex((m) => m.injected);
  for (let keep = 0; keep <= transcriptChars(messages) + 10; keep++) {
    const cut = cutIndex(messages, 1, keep);
    assert.notEqual(cut, injected);
    if (cut !== undefined) assert.ok(isBoundary(messages[cut]), `keep ${keep} cut ${cut}`);
  }
  // A budget that fits everything from the injected turn on still cuts before the real turn.
  const fromInjected = transcriptChars(messages.slice(injected));
  assert.equal(cutIndex(messages, 1, fromInjected), 8);
  assert.equal(cutIndex(messages, 1, transcriptChars(messages.slice(3))), 3);
});

Deno.test("cut: a tool-call turn is never split from its results, at any budget", () => {
  const messages = transcript();
  messages.push(
    Message.user("[t4] bob: run two things", { items: ["u4"] }),
    Message.assistant({ toolCalls: [call("c1", "echo"), call("c2", "echo")] }),
    Message.tool("c1", "one"),
    Message.system("Current Time: x\n\nStep 2 of 24."),
    Message.tool("c2", "two"),
    Message.assistant({ content: "done" }),
  );
  for (let keep = 0; keep <= transcriptChars(messages); keep++) {
    const cut = cutIndex(messages, 1, keep);
    if (cut === undefined) {
      // Only when everything after the charter fits: then there is nothing to drop.
      assert.ok(keep >= transcriptChars(messages.slice(1)), `keep ${keep}`);
      continue;
    }
    assert.ok(wellFormed(messages.slice(cut)), `keep ${keep} cut ${cut}`);
    assert.ok(wellFormed(messages.slice(1, cut)), "the dropped region is whole too");
  }
});

Deno.test("cut: the newest real user turn is the floor, even over budget", () => {
  const messages = transcript();
  assert.equal(cutIndex(messages, 1, 0), 8);
  messages.push(Message.user("x".repeat(5000), { items: ["u4"] }));
  assert.equal(cutIndex(messages, 1, 10), 10);
});

Deno.test("cut: no real user turn after the prelude means no safe cut", () => {
  const lone = [Message.system("charter"), Message.user("only"), Message.assistant({})];
  assert.equal(cutIndex(lone, 1, 0), undefined, "cutting at the only turn drops nothing");
  const chain = [
    Message.system("charter"),
    Message.assistant({ toolCalls: [call("c1", "echo")] }),
    Message.tool("c1", "r"),
    Message.user("(Showing image: x)", { injected: true }),
  ];
  assert.equal(cutIndex(chain, 1, 0), undefined);
  assert.equal(cutIndex([], 0, 0), undefined);
});

Deno.test("cut: the region renders roles, called tools and trimmed content", () => {
  assert.equal(
    renderRegion([
      Message.user(" hi "),
      Message.assistant({ content: "ok", toolCalls: [call("a", "echo"), call("b", "memory")] }),
      Message.tool("a", "r"),
    ]),
    "### user\nhi\n\n### assistant → called: echo, memory\nok\n\n### tool\nr",
  );
});

Deno.test("cut: the summary turn's exact wording", () => {
  assert.equal(
    summaryText(7, "NOTES"),
    "[Earlier conversation compacted: 7 messages replaced by these notes, so this conversation " +
      "stays inside the model's context window. The detail is gone; what follows is what was " +
      "kept.]\n\nNOTES",
  );
  assert.ok(summaryText(1, "x").startsWith(SUMMARY_MARKER));
});

Deno.test("cut: destroyed items are a first-seen union, summaries' items included", () => {
  const summary = Message.system(summaryText(2, "old"));
  summary.items = ["u0", "u1"];
  assert.deepEqual(
    droppedItems([
      summary,
      Message.user("a", { items: ["u1", "u2"] }),
      Message.user("b", { items: ["u3"] }),
      Message.user("(Showing image: x)", { injected: true }),
    ]),
    ["u0", "u1", "u2", "u3"],
  );
});

Deno.test("cut: evidence release prunes summaries' items to what is still unsettled", () => {
  const summary = Message.system(summaryText(2, "old"));
  summary.items = ["u1", "u2"];
  const peer = Message.user("a", { items: ["u9"] });
  const messages = [summary, peer];
  assert.equal(pruneSummaryItems(messages, (u) => u === "u2"), true);
  assert.deepEqual(summary.items, ["u2"]);
  assert.equal(pruneSummaryItems(messages, (u) => u === "u2"), false);
  assert.equal(pruneSummaryItems(messages, () => false), true);
  assert.equal(summary.items, undefined);
  assert.deepEqual(peer.items, ["u9"], "user turns keep their items");
});
