import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { runEnd, runResultIndex, runResults } from "../../lib/core/types/runs.ts";

// user, assistant(call a, call b), tool a (interrupted), tool b, tool a (re-driven), assistant
const call = (id: string) => ({ id, name: "messages", arguments: { action: "create" } });
const messages = [
  Message.user("go"),
  Message.assistant({ toolCalls: [call("a"), call("b")] }),
  Message.tool("a", "[interrupted]"),
  Message.tool("b", "posted b"),
  Message.tool("a", "posted a"),
  Message.assistant({ content: "done" }),
  Message.tool("a", "another run's result"),
];

Deno.test("runs: a run ends at the next assistant turn", () => {
  assert.equal(runEnd(messages, 1), 5);
  assert.equal(runEnd(messages, 5), 7);
});

Deno.test("runs: a call's result is the later one in its run, by map and by index alike", () => {
  assert.equal(runResults(messages, 1).get("a")?.content, "posted a");
  assert.equal(runResultIndex(messages, 1, "a"), 4);
  assert.equal(runResultIndex(messages, 1, "b"), 3);
  // Results outside the run and ids never called are not found.
  assert.equal(runResultIndex(messages, 1, "c"), -1);
  assert.equal(runResults(messages, 1).size, 2);
});
