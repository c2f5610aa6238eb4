/**
 * An agent without its `messages` tool cannot speak, so its wake must not take items: it exits 1
 * with one line naming the plugin file before any claim, mark or model call, and once the file is
 * repaired the next wake answers the message that waited (docs/operating.md#run-under-a-router).
 * Through the router twin: the failing delivery is tried 3 times and recorded as failed (not
 * deduped), and delivered again after the fix it is answered once.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import {
  agentPosts,
  assertMessageMark,
  claimOf,
  mark,
  say,
  scriptReply,
  wakeFor,
  world,
} from "./wake_support.ts";

/** The ways a shipped plugin file breaks on a box. */
const BREAKAGES: ReadonlyArray<readonly [string, (file: string) => Promise<void>]> = [
  ["truncated", async (file) => {
    const text = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, text.slice(0, Math.floor(text.length / 2)));
  }],
  ["garbage", (file) => Deno.writeTextFile(file, "\u0000\u00ff not json {{{")],
  ["an empty file", (file) => Deno.writeTextFile(file, "")],
  ["a directory", async (file) => {
    await Deno.remove(file);
    await Deno.mkdir(file);
  }],
];

for (const [breakage, breakIt] of BREAKAGES) {
  Deno.test(`a wake whose messages.json is ${breakage} takes nothing and says so; the repaired one answers`, async () => {
    await using w = await world({ routed: true });
    const installed = await runCli(["install"], { env: w.env });
    assert.equal(installed.code, 0, installed.stderr);
    const file = `${w.env.BASECRADLE_CONFIG_HOME}/tools/messages.json`;
    const pristine = await Deno.readTextFile(file);
    await breakIt(file);
    const m = await say(w, "are you there?");
    await w.settle();

    const refused = wakeFor(w, m.content.uuid);
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.record.outcome, "failed");
    assert.deepEqual(refused.record.attempts.map((a) => a.code), [1, 1, 1]);
    const lines = refused.stderr.split("\n").filter((line) =>
      line.startsWith("ERROR harness wake: ")
    );
    assert.equal(lines.length, 3, refused.stderr); // one per attempt
    assert.match(lines[0], /The messages tool is not active \(/);
    assert.ok(lines[0].includes(file), lines[0]);
    assert.match(lines[0], /no item was taken/);
    assert.match(refused.stderr, /ERROR wake failed timeline=/);
    // Nothing was taken: no claim, no mark, no model call, nothing posted.
    assert.equal(await claimOf(w, "messages", m.content.uuid), undefined);
    assert.equal(await mark(w, "messages"), undefined);
    assert.equal(w.model.hits("chat"), 0);
    assert.deepEqual(await agentPosts(w), []);

    await Deno.remove(file, { recursive: true });
    await Deno.writeTextFile(file, pristine);
    scriptReply(w.model, "yes, here");
    // The same delivery again (a failed one is not remembered as woken): answered once.
    assert.ok(w.sandbox.router!.redeliver(refused.record.delivery));
    await w.settle();
    const again = w.history().filter((r) => r.delivery === refused.record.delivery);
    assert.deepEqual(again.map((r) => r.outcome), ["failed", "woke"]);
    assert.equal(again[1].code, 0, again[1].attempts[0].output);
    assert.deepEqual(await agentPosts(w), ["yes, here"]);
    await assertMessageMark(w, m.content.uuid);
    // Once more: now it is a duplicate, and nothing runs.
    w.sandbox.router!.redeliver(refused.record.delivery);
    await w.settle();
    assert.equal(w.history().at(-1)!.outcome, "dedup");
    assert.equal(w.model.hits("chat"), 2);
    assert.deepEqual(await agentPosts(w), ["yes, here"]);
  });
}

Deno.test("a messages tool renamed by its plugin still counts as speech", async () => {
  await using w = await world();
  const installed = await runCli(["install"], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  const file = `${w.env.BASECRADLE_CONFIG_HOME}/tools/messages.json`;
  const plugin = JSON.parse(await Deno.readTextFile(file));
  plugin.plugins[0].name = "speak";
  await Deno.writeTextFile(file, JSON.stringify(plugin));
  await say(w, "hello?");
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_0", name: "speak", arguments: { action: "create", body: "hi" } }],
      }),
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(await agentPosts(w), ["hi"]);
});
