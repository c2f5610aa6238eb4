import { strict as assert } from "node:assert";
import { join } from "node:path";
import { WakeRouter } from "../../lib/sandbox/mod.ts";
import { withSandbox } from "./helpers.ts";

/** A wake command that records its env and args as JSON lines and detects overlapping wakes. */
async function recorder(dir: string): Promise<{ command: string; log: string }> {
  const log = join(dir, "wakes.jsonl");
  const script = join(dir, "wake.sh");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh
busy="$HARNESS_HOME/busy"
overlap=false
if [ -e "$busy" ]; then overlap=true; fi
touch "$busy"
sleep 0.05
printf '{"home":"%s","token":"%s","base":"%s","delivery":"%s","overlap":%s,"args":"%s"}\\n' \\
  "$HARNESS_HOME" "$BASECRADLE_TOKEN" "$BASECRADLE_BASE_URL" "$BASECRADLE_DELIVERY_ID" \\
  "$overlap" "$*" >> "${log}"
rm -f "$busy"
echo "woken $*"
`,
  );
  // The command string carries its own flag; the router appends --timeline <uuid> after it.
  return { command: `sh ${script} --flag`, log };
}

interface WakeLine {
  home: string;
  token: string;
  base: string;
  delivery: string;
  overlap: boolean;
  args: string;
}

Deno.test("router emulation: one wake per event per AI viewer, own messages skipped, serialised", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sandbox-router-" });
  const { command, log } = await recorder(dir);
  const lines: string[] = [];
  try {
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
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "two" } });
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
      // Not actionable: lock and delete.
      await ada.api.delete(`/timelines/${quiet}`);
      await h.sandbox.router!.idle();

      const wakes = (await Deno.readTextFile(log)).trim().split("\n").map((l) =>
        JSON.parse(l) as WakeLine
      );
      const byAgent = (handle: string) => wakes.filter((w) => w.home.endsWith(`/agents/${handle}`));
      // vega: ada×2 messages, its own task, the webhook (its own message skipped) = 4.
      // orion: ada×2, vega's message, vega's task, the webhook = 5.
      assert.equal(byAgent("vega").length, 4);
      assert.equal(byAgent("orion").length, 5);
      assert.equal(byAgent("ada").length, 0);
      assert.equal(wakes.length, 9);
      assert.ok(wakes.every((w) => !w.overlap), "wakes of one agent never overlap");
      assert.ok(wakes.every((w) => w.args === `--flag --timeline ${tl}`));
      assert.ok(wakes.every((w) => w.base === h.base));
      assert.equal(new Set(wakes.map((w) => w.delivery)).size, 9);
      assert.ok(byAgent("vega").every((w) => w.token === vega.token));
      assert.ok(byAgent("orion").every((w) => w.token === orion.token));
      assert.ok(byAgent("vega").every((w) => w.home === join(dir, "agents", "vega")));
      // The woken agent's token works against the sandbox.
      const history = h.sandbox.router!.history;
      assert.equal(history.length, 9);
      assert.ok(history.every((r) => r.code === 0));
      assert.equal(history.filter((r) => r.event === "task.activated").length, 2);
    }, {
      dataDir: dir,
      wakeCommand: command,
      log: (line) => lines.push(line),
      wakeOutput: () => {},
    });
    assert.equal(lines.filter((l) => l.startsWith("sandbox wake start")).length, 9);
    assert.equal(lines.filter((l) => /^sandbox wake exit .* code=0 /.test(l)).length, 9);
    assert.ok(lines.every((l) => !/bc_uat_/.test(l)), "tokens never logged");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("router: a revoked token is replaced by a freshly minted one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sandbox-router-" });
  const { command, log } = await recorder(dir);
  try {
    await withSandbox(async (h) => {
      const ada = await h.user("ada");
      const vega = await h.user("vega", "ai");
      await h.mutual(ada, vega);
      const tl = await h.timeline(ada);
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid });
      await vega.api.delete("/session");
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
      await h.sandbox.router!.idle();
      const wake = JSON.parse((await Deno.readTextFile(log)).trim()) as WakeLine;
      assert.notEqual(wake.token, vega.token);
      const me = await fetch(`${h.base}/users/dashboard`, {
        headers: { authorization: `Bearer ${wake.token}` },
      });
      assert.equal((await me.json()).identity.uuid, vega.uuid);
    }, { dataDir: dir, wakeCommand: command, wakeOutput: () => {} });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("WakeRouter standalone: per-agent queues, agents in parallel, exit codes recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wake-router-" });
  try {
    const router = new WakeRouter({
      // "$@" lands after `true`, so the check itself sees no extra arguments.
      command: `sleep 0.2; [ "$BASECRADLE_TOKEN" = tok-a ] || exit 1; true`,
      baseUrl: "http://127.0.0.1:1",
      homeRoot: dir,
      directory: {
        viewers: () => [
          { uuid: "a", handle: "a", kind: "ai" },
          { uuid: "b", handle: "b", kind: "ai" },
          { uuid: "h", handle: "h", kind: "human" },
        ],
        tokenFor: (user) => `tok-${user}`,
      },
      log: () => {},
      output: () => {},
    });
    const event = (name: string, actor: string | null) => ({
      event: name as "message.created",
      timeline: "t",
      item: "i",
      actor,
      at: new Date().toISOString(),
    });
    const started = performance.now();
    assert.equal(router.dispatch(event("message.created", "h")).length, 2);
    assert.equal(router.dispatch(event("message.created", "a")).length, 1); // only b
    assert.equal(router.dispatch(event("task.activated", "a")).length, 2); // a's own task wakes a
    assert.equal(router.dispatch(event("timeline.deleted", "h")).length, 0);
    await router.idle();
    const elapsed = performance.now() - started;
    // b has 3 wakes in a row (≥ 0.6 s); a has 2. In parallel the whole run stays under a+b.
    assert.ok(elapsed >= 550, `serialised per agent (${elapsed} ms)`);
    assert.ok(elapsed < 1000, `agents in parallel (${elapsed} ms)`);
    const codes = router.history.map((r) => `${r.handle}:${r.code}`).sort();
    assert.deepEqual(codes, ["a:0", "a:0", "b:1", "b:1", "b:1"]);
    await router.close();
    assert.equal(router.dispatch(event("message.created", "h")).length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
