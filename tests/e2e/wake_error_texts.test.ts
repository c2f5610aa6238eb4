/**
 * A missing credential names the variable to set (docs/operating.md#what-a-wake-needs): the
 * model key as `AI_API_KEY`, the platform credential as `BASECRADLE_TOKEN` or the email and
 * password pair, for a wake and for poll alike. Each is one stderr line, exit 1, no model call.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { say, world } from "./wake_support.ts";

const NO_KEY =
  "AI_API_KEY is required — set it to this agent's API key for its model vendor (AI_PROVIDER, " +
  "default openai).";
const NO_TOKEN = "No platform credential: set BASECRADLE_TOKEN to this agent's API token, or " +
  "BASECRADLE_EMAIL and BASECRADLE_PASSWORD to sign in with.";

function refusalLine(stderr: string, command: string): string {
  const lines = stderr.trimEnd().split("\n").filter((line) => line.startsWith(`${command}: `));
  assert.equal(lines.length, 1, stderr);
  return lines[0].slice(command.length + 2);
}

Deno.test("a wake without AI_API_KEY names AI_API_KEY, not a Python keyword argument", async () => {
  await using w = await world();
  await say(w, "hi @ada");
  const result = await w.wake([], { AI_API_KEY: "" });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(refusalLine(result.stderr, "ERROR harness wake"), NO_KEY);
  assert.doesNotMatch(result.stderr, /api_key=/);
  assert.equal(w.model.hits(), 0);
});

Deno.test("a wake without a platform credential names BASECRADLE_TOKEN and the pair", async () => {
  await using w = await world();
  await say(w, "hi @ada");
  const result = await w.wake([], { BASECRADLE_TOKEN: "" });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(refusalLine(result.stderr, "ERROR harness wake"), NO_TOKEN);
  assert.match(result.stderr, /ERROR wake failed timeline=\S+ error="No platform credential/);
  assert.equal(w.model.hits(), 0);
});

Deno.test("poll names the same variables", async () => {
  await using w = await world();
  const args = ["poll", "--timeline", w.timeline, "--once"];
  const noKey = await runCli(args, { env: { ...w.env, AI_API_KEY: "" } });
  assert.equal(noKey.code, 1, noKey.stderr);
  assert.equal(refusalLine(noKey.stderr, "harness poll"), NO_KEY);
  const noToken = await runCli(args, { env: { ...w.env, BASECRADLE_TOKEN: "" } });
  assert.equal(noToken.code, 1, noToken.stderr);
  assert.equal(refusalLine(noToken.stderr, "harness poll"), NO_TOKEN);
});
