/**
 * `posted=` on `wake end` (docs/journal.md) counts the messages that reached the platform, each
 * once: a create whose outcome stayed unknown is not counted by the wake that lost its answer,
 * and it is counted by the wake whose recovery settles it.
 */
import assert from "node:assert/strict";
import { agentPosts, say, scriptReply, world } from "./wake_support.ts";

/** `posted=` of the `wake end` line in a wake's stderr. */
function posted(stderr: string): number {
  const found = stderr.match(/wake end .*?posted=(\d+)/);
  assert.ok(found, stderr);
  return Number(found[1]);
}

Deno.test("posted= counts a message once, in the wake that knows it reached the platform", async () => {
  await using w = await world();
  await say(w, "please reply");
  // Every answer to the create is lost after the write: its outcome stays unknown this wake.
  const path = `^/timelines/${w.timeline}/messages$`;
  w.sandbox.addFault({ path, method: "POST", count: 3, status: 502, commit: true });
  scriptReply(w.model, "the one reply", "Done.");
  const lost = await w.wake();
  assert.equal(lost.code, 0, lost.stderr);
  assert.match(lost.stderr, /create unsettled/);
  assert.equal(posted(lost.stderr), 0, "an unknown outcome is not counted as posted");

  const settling = await w.wake();
  assert.equal(settling.code, 0, settling.stderr);
  assert.match(settling.stderr, /re-issued/);
  assert.equal(posted(settling.stderr), 1, "the wake that settles it counts it");
  assert.deepEqual(await agentPosts(w), ["the one reply"]);

  await say(w, "and again?");
  scriptReply(w.model, "yes", "Done.");
  const plain = await w.wake();
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(posted(plain.stderr), 1, "a confirmed post counts once");
});
