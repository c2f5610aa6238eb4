/**
 * Each agent's own settings in the router twin (docs/sandbox.md#the-router-twin): an agent whose
 * home holds `agent.env` runs with its variables over the twin's shared environment — as the
 * fleet's wake runner gives each agent its own file — while the token, base URL, home and delivery
 * id are always the twin's; a skipped line is reported by number, never by its text; an agent
 * without the file runs with the shared environment alone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { WakeRouter } from "../../lib/sandbox/mod.ts";
import { AGENTS, type Recorder, recorder } from "./router_support.ts";

/** A twin over `rec`'s script that wakes `agents` for one human message and settles it. */
async function wakeOnce(
  rec: Recorder,
  agents: (typeof AGENTS)[keyof typeof AGENTS][],
  options: { env?: Record<string, string>; log?: (line: string) => void; attempts?: number },
): Promise<WakeRouter> {
  const router = new WakeRouter({
    command: rec.command,
    baseUrl: "http://127.0.0.1:9",
    homeRoot: rec.dir,
    env: options.env,
    directory: { viewers: () => agents, tokenFor: (user) => `tok-${user.slice(-1)}` },
    log: options.log ?? (() => {}),
    output: () => {},
    rules: { coalesce: false, attempts: options.attempts ?? 3 },
  });
  router.dispatch({
    event: "message.created",
    timeline: "0190b000-0000-7000-8000-000000000001",
    item: "0190c000-0000-7000-8000-000000000001",
    actor: AGENTS.h.uuid,
    at: new Date().toISOString(),
  });
  await router.idle();
  await router.close();
  return router;
}

Deno.test("an agent's agent.env goes over the shared environment; the twin's own four go over it", async () => {
  await using rec = await recorder(0);
  const homeA = join(rec.dir, "agents", AGENTS.a.handle);
  await Deno.mkdir(homeA, { recursive: true });
  await Deno.writeTextFile(
    join(homeA, "agent.env"),
    [
      "# agent a runs its own model",
      "export AI_MODEL='model-of-a'",
      "BASECRADLE_TOKEN=stale-token-from-the-file",
      "HARNESS_HOME=/elsewhere",
      "this line holds sk-not-a-real-secret-value and no equals sign",
    ].join("\n") + "\n",
  );
  const lines: string[] = [];
  await wakeOnce(rec, [AGENTS.a, AGENTS.b, AGENTS.h], {
    env: { AI_MODEL: "shared-model" },
    log: (line) => lines.push(line),
  });

  const runs = await rec.runs();
  const byHome = new Map(runs.map((run) => [run.home, run]));
  const a = byHome.get(homeA);
  const b = byHome.get(join(rec.dir, "agents", AGENTS.b.handle));
  assert.ok(a && b, JSON.stringify(runs));
  assert.equal(a.model, "model-of-a", "the agent's file goes over the shared environment");
  assert.equal(b.model, "shared-model", "an agent without a file gets the shared environment");
  assert.equal(a.token, "tok-a", "the twin's token goes over the file's");
  assert.equal(a.code, 0);
  const skipped = lines.filter((line) => line.startsWith("sandbox agent.env "));
  assert.deepEqual(skipped, [
    `sandbox agent.env ${join(homeA, "agent.env")}:5 skipped: it has no '=' (expected KEY=VALUE)`,
  ]);
  assert.ok(!lines.join("\n").includes("sk-not-a-real"), "a skipped line's text is never shown");
});

Deno.test("an agent.env that exists but cannot be read fails the attempt, which says why", async () => {
  await using rec = await recorder(0);
  const homeA = join(rec.dir, "agents", AGENTS.a.handle);
  // A folder where the file belongs: it exists and cannot be read as text.
  await Deno.mkdir(join(homeA, "agent.env"), { recursive: true });
  const router = await wakeOnce(rec, [AGENTS.a, AGENTS.h], { attempts: 1 });
  const [record] = router.history;
  assert.equal(record.outcome, "failed");
  assert.equal(record.attempts[0].code, null);
  assert.match(String(record.attempts[0].error), /cannot read .*agents\/a\/agent\.env/);
  assert.deepEqual(await rec.runs(), [], "the wake was never started");
});
