/**
 * An agent without its `messages` tool cannot speak, so its wake must not take items: it exits 1
 * with one line naming the plugin file before any claim, mark or model call, and once the file is
 * repaired the next wake answers the message that waited (docs/operating.md#run-under-a-router).
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, claimOf, mark, say, scriptReply, world } from "./wake_support.ts";

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
    await using w = await world();
    const installed = await runCli(["install"], { env: w.env });
    assert.equal(installed.code, 0, installed.stderr);
    const file = `${w.env.BASECRADLE_CONFIG_HOME}/tools/messages.json`;
    const pristine = await Deno.readTextFile(file);
    await breakIt(file);
    const m = await say(w, "are you there?");

    const refused = await w.wake();
    assert.equal(refused.code, 1, refused.stderr);
    const lines = refused.stderr.split("\n").filter((line) =>
      line.startsWith("ERROR harness wake: ")
    );
    assert.equal(lines.length, 1, refused.stderr);
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
    const repaired = await w.wake();
    assert.equal(repaired.code, 0, repaired.stderr);
    assert.deepEqual(await agentPosts(w), ["yes, here"]);
    assert.equal(await mark(w, "messages"), m.content.uuid);
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
