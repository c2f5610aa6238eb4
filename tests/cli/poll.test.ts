/**
 * `harness poll` as a real process (the production permission set): `--once` seeds and exits,
 * the loop answers news through the sandbox's demo model and stops cleanly on SIGTERM/SIGINT,
 * configuration errors are one stderr line (exit 1) and malformed flags are usage errors (2).
 */
import assert from "node:assert/strict";
import { DEMO_MODEL_ID, DEMO_PREFIX } from "../../lib/sandbox/model/demo_model.ts";
import { say, spawnHarness, waitFor, type World, world } from "../e2e/wake_support.ts";
import { runCli } from "../support/run_cli.ts";

/** The world's env with the sandbox's deterministic demo model in place of the scripted one. */
function demoEnv(w: World): Record<string, string> {
  return { ...w.env, AI_BASE_URL: w.sandbox.modelUrl, AI_MODEL: DEMO_MODEL_ID };
}

Deno.test("--once seeds the backlog, answers none of it, exits 0", async () => {
  await using w = await world();
  for (const body of ["a", "b", "c"]) await say(w, body);
  const result = await runCli(["poll", "--timeline", w.timeline, "--once"], { env: w.env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /^INFO poll start timeline=\S+ seeded=3 mark=\S+ onboard=true knowledge_sha256=[0-9a-f]{64}$/m,
  );
  assert.equal(w.model.hits("chat"), 0);
  const mine = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
    .filter((m) => m.user.uuid === w.agent.uuid);
  assert.deepEqual(mine, []);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`the loop answers news, then stops cleanly on ${signal} (exit 0)`, async () => {
    await using w = await world();
    await say(w, "old news");
    const poll = spawnHarness(
      ["poll", "--timeline", w.timeline, "--interval", "0.1"],
      demoEnv(w),
    );
    try {
      await waitFor("poll start", () => poll.stderr().includes("poll start"), 60_000, poll.stderr);
      await say(w, "are you there?");
      const reply = await waitFor(
        "the demo model's reply",
        async () =>
          (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
            .find((m) => m.user.uuid === w.agent.uuid),
        30_000,
        poll.stderr,
      );
      assert.ok(reply?.content.body.startsWith(DEMO_PREFIX), reply?.content.body);
      // Only the news was answered, once.
      const mine = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
        .filter((m) => m.user.uuid === w.agent.uuid);
      assert.equal(mine.length, 1);
      const status = await poll.kill(signal);
      const stderr = poll.stderr();
      assert.equal(status.code, 0, stderr);
      assert.match(stderr, /^INFO posted /m);
      assert.match(stderr, /^INFO unspoken /m);
      assert.ok(!/^ERROR/m.test(stderr), stderr);
    } finally {
      await poll.kill();
    }
  });
}

Deno.test("a configuration error is one stderr line and exit 1", async () => {
  await using w = await world();
  const env = { ...w.env, AI_MODEL: "" };
  const result = await runCli(["poll", "--timeline", w.timeline, "--once"], { env });
  assert.equal(result.code, 1);
  assert.deepEqual(result.stderr.trimEnd().split("\n"), [
    "harness poll: AI_MODEL is required — set it to the model id this agent runs on.",
  ]);
  const unknown = await runCli(
    ["poll", "--timeline", "00000000-0000-4000-8000-000000000000", "--once"],
    { env: w.env },
  );
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^harness poll: Timeline \S+ does not exist/m);
  assert.equal(unknown.stderr.trimEnd().split("\n").length, 1, unknown.stderr);
});

Deno.test("malformed flags are usage errors (exit 2)", async () => {
  for (
    const args of [
      ["poll"],
      ["poll", "--timeline", "nope"],
      ["poll", "--timeline", "00000000-0000-4000-8000-000000000000", "--interval", "0"],
      ["poll", "--timeline", "00000000-0000-4000-8000-000000000000", "--interval", "soon"],
      ["poll", "--timeline", "00000000-0000-4000-8000-000000000000", "extra"],
    ]
  ) {
    const result = await runCli(args, { env: { BASECRADLE_TIMELINE: "" } });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, /^harness poll: /);
  }
  const help = await runCli(["poll", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: harness poll --timeline <uuid>/);
});
