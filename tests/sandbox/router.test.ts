import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type Harness, withSandbox } from "./helpers.ts";
import { recorder, type Run } from "./router_support.ts";

/** A human, ada, and an AI, vega, who trust each other, on a timeline of ada's that vega joined. */
async function roomWithAgent(h: Harness) {
  const ada = await h.user("ada");
  const vega = await h.user("vega", "ai");
  await h.mutual(ada, vega);
  const tl = await h.timeline(ada);
  await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid });
  return { ada, vega, tl };
}

Deno.test("router twin in the sandbox: one delivery per AI viewer, actor-agnostic, argv exactly --timeline <uuid>", async () => {
  await using rec = await recorder();
  const lines: string[] = [];
  await withSandbox(async (h) => {
    const ada = await h.user("ada");
    const vega = await h.user("vega", "ai");
    const orion = await h.user("orion", "ai");
    await h.mutual(ada, vega);
    await h.mutual(ada, orion);
    await h.mutual(vega, orion);
    const tl = await h.timeline(ada, "shared");
    await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid });
    await ada.api.post(`/timelines/${tl}/participations`, { user_id: orion.uuid });
    // A timeline with no AI viewer wakes nobody.
    const quiet = await h.timeline(ada, "quiet");
    await ada.api.post(`/timelines/${quiet}/messages`, { message: { body: "to myself" } });

    await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "one" } });
    await vega.api.post(`/timelines/${tl}/messages`, { message: { body: "from vega" } });
    const task = await vega.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "remind me", activate_at: "2999-01-01T00:00:00Z" },
    });
    await h.admin.post(`/_sandbox/tasks/${task.body.task.content.uuid}/activate`);
    const ep = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "ci" },
    });
    const ingest = await fetch(ep.body.webhook_endpoint.content.ingest_url, {
      method: "POST",
      body: "{}",
    });
    await ingest.body?.cancel();
    // Not actionable: delete.
    await ada.api.delete(`/timelines/${quiet}`);
    await h.sandbox.router!.idle();

    const runs = await rec.runs();
    const byAgent = (handle: string) => runs.filter((w) => w.home.endsWith(`/agents/${handle}`));
    // Each AI viewer gets every event, its own message and its own task included: 4 each.
    assert.equal(byAgent("vega").length, 4);
    assert.equal(byAgent("orion").length, 4);
    assert.equal(byAgent("ada").length, 0);
    assert.ok(runs.every((w) => !w.overlap), "wakes of one agent never overlap");
    // Nothing is appended but --timeline <uuid>: no --message, --asset or --event.
    assert.ok(runs.every((w) => JSON.stringify(w.args) === JSON.stringify(["--timeline", tl])));
    assert.ok(runs.every((w) => w.base === h.base));
    assert.equal(new Set(runs.map((w) => w.delivery)).size, 8);
    assert.ok(byAgent("vega").every((w) => w.token === vega.token));
    assert.ok(byAgent("orion").every((w) => w.token === orion.token));
    assert.ok(byAgent("vega").every((w) => w.home === join(rec.dir, "agents", "vega")));
    const history = h.sandbox.router!.history;
    assert.equal(history.length, 8);
    assert.ok(history.every((r) => r.outcome === "woke" && r.code === 0));
    assert.deepEqual(
      new Set(history.map((r) => r.delivery)),
      new Set(runs.map((w) => w.delivery)),
      "BASECRADLE_DELIVERY_ID is the delivery's id",
    );
    assert.equal(history.filter((r) => r.event === "task.activated").length, 2);
    const own = history.filter((r) => r.handle === "vega" && r.actor === vega.uuid);
    assert.equal(own.length, 2, "vega's own message and own task woke it");
  }, {
    dataDir: rec.dir,
    wakeCommand: rec.command,
    // Every delivery is run here; coalescing has its own tests.
    routerRules: { coalesce: false },
    log: (line) => lines.push(line),
    wakeOutput: () => {},
  });
  assert.equal(lines.filter((l) => l.startsWith("sandbox wake start")).length, 8);
  assert.equal(lines.filter((l) => /^sandbox wake exit .* code=0 /.test(l)).length, 8);
  assert.ok(lines.every((l) => !/bc_uat_/.test(l)), "tokens never logged");
});

Deno.test("router twin: the command may carry its own leading words; only --timeline <uuid> is appended", async () => {
  await using rec = await recorder();
  await withSandbox(async (h) => {
    const { ada, tl } = await roomWithAgent(h);
    await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
    await h.sandbox.router!.idle();
    const [run] = await rec.runs();
    assert.deepEqual(run.args, ["wake", "--flag", "--timeline", tl]);
  }, { dataDir: rec.dir, wakeCommand: `${rec.command} wake --flag`, wakeOutput: () => {} });
});

Deno.test("router twin: --no-own-posts (actorAgnostic: false) skips the agent's own posts, not its own task", async () => {
  await using rec = await recorder();
  await withSandbox(async (h) => {
    const { vega, tl } = await roomWithAgent(h);
    await vega.api.post(`/timelines/${tl}/messages`, { message: { body: "mine" } });
    const task = await vega.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "remind me", activate_at: "2999-01-01T00:00:00Z" },
    });
    await h.admin.post(`/_sandbox/tasks/${task.body.task.content.uuid}/activate`);
    await h.sandbox.router!.idle();
    const history = h.sandbox.router!.history;
    assert.deepEqual(history.map((r) => r.event), ["task.activated"]);
  }, {
    dataDir: rec.dir,
    wakeCommand: rec.command,
    routerRules: { actorAgnostic: false },
    wakeOutput: () => {},
  });
});

Deno.test("router twin: a revoked token is replaced by a freshly minted one", async () => {
  await using rec = await recorder();
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await roomWithAgent(h);
    await vega.api.delete("/session");
    await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
    await h.sandbox.router!.idle();
    const [wake] = await rec.runs() as [Run];
    assert.notEqual(wake.token, vega.token);
    const me = await fetch(`${h.base}/users/dashboard`, {
      headers: { authorization: `Bearer ${wake.token}` },
    });
    assert.equal((await me.json()).identity.uuid, vega.uuid);
  }, { dataDir: rec.dir, wakeCommand: rec.command, wakeOutput: () => {} });
});
