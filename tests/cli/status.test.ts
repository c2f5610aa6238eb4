/**
 * `harness status` as a process, over a home that real wakes on the sandbox populated (two
 * engaged wakes, then an item left in flight and a billing wall), over an empty home, and
 * without HARNESS_HOME. It reads the home only: no platform or model variables are given.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { encodeClaimRecord } from "../../lib/home/claim_record.ts";
import { say, scriptReply, world } from "../e2e/wake_support.ts";

const ITEM = "0197a6b2-1c3d-7e4f-8a9b-00000000000b";
/** Only HARNESS_HOME: status must not need the platform, the model or a credential. */
const only = (home: string) => ({
  HARNESS_HOME: home,
  BASECRADLE_TOKEN: "",
  AI_API_KEY: "",
  BASECRADLE_BASE_URL: "",
  AI_BASE_URL: "",
});

Deno.test("status: an empty home says so (text and JSON); no HARNESS_HOME is exit 1", async () => {
  const home = await Deno.makeTempDir({ prefix: "status-empty-" });
  try {
    const text = await runCli(["status"], { env: only(home) });
    assert.deepEqual([text.code, text.stdout, text.stderr], [
      0,
      `no timelines under ${home}\n`,
      "",
    ]);
    const json = await runCli(["status", "--json"], { env: only(home) });
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout), { home, timelines: [] });
    const missing = await runCli(["status"], { env: only(`${home}/nope`) });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^harness status: HARNESS_HOME .*\/nope does not exist/);
    const unset = await runCli(["status"], { env: only("") });
    assert.equal(unset.code, 1);
    assert.match(unset.stderr, /^harness status: HARNESS_HOME is not set;/);
    const bad = await runCli(["status", "--timeline", "nope"], { env: only(home) });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name: "status: the last wakes of a timeline real wakes answered, its items in flight and walls",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await world();
    await say(w, "@ada hello");
    scriptReply(w.model, "Hello, Bob.");
    assert.equal((await w.wake()).code, 0);
    await say(w, "@ada again");
    scriptReply(w.model, "Hi again.");
    assert.equal((await w.wake()).code, 0);
    assert.equal((await w.wake()).code, 0); // nothing new: an idle wake, no turn record

    const json = await runCli(["status", "--json"], { env: only(w.home) });
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.timelines.length, 1);
    const [t] = report.timelines;
    assert.equal(t.timeline, w.timeline);
    assert.equal(t.wakes.length, 2);
    for (const wake of t.wakes) {
      assert.equal(wake.outcome, "ok");
      assert.equal(wake.outcome_kind, "narration");
      assert.equal(wake.posted, 1);
      assert.deepEqual(wake.results, {
        spoke: 1,
        silent: 0,
        escalated: 0,
        refused: 0,
        truncated: 0,
        failed: 0,
      });
      assert.equal(wake.steps, 2);
      assert.equal(wake.turns, 1);
      assert.match(wake.wake_id, /^[0-9a-f]{32}$/);
    }
    assert.ok(t.wakes[0].record_written_at >= t.wakes[1].record_written_at, "newest first");
    assert.notEqual(t.wakes[0].wake_id, t.wakes[1].wake_id);
    // The idle third wake is the newest one the breaker window saw: it started after the last
    // record was written.
    assert.ok(t.last_wake_started_at > t.wakes[0].record_written_at, JSON.stringify(t));
    assert.deepEqual(t.in_flight, []);
    assert.deepEqual(t.walls, { breaker_tripped_at: null, billing_blocked_since: null });

    const limited = JSON.parse(
      (await runCli(["status", "--json", "--limit", "1"], { env: only(w.home) })).stdout,
    );
    assert.equal(limited.timelines[0].wakes[0].wake_id, t.wakes[0].wake_id);
    assert.equal(limited.timelines[0].wakes.length, 1);

    // A wake killed mid-item leaves its claim in flight; a billing wall goes up.
    const claims = `${w.home}/claims/messages/${w.timeline}`;
    const at = Date.now() / 1000;
    await Deno.writeTextFile(
      `${claims}/${ITEM}.claim`,
      encodeClaimRecord({ phase: "in-flight", pid: 2 ** 23, wake: "b".repeat(32), at }),
    );
    await Deno.mkdir(`${w.home}/billing`, { recursive: true });
    await Deno.writeTextFile(`${w.home}/billing/${w.timeline}.blocked`, String(at));
    const text = await runCli(["status", "--timeline", w.timeline], { env: only(w.home) });
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split("\n");
    assert.match(lines[0], new RegExp(`^timeline ${w.timeline}  last wake started \\d{4}-`));
    assert.match(lines[1], /^ {2}WALL billing blocked since \d{4}-/);
    assert.match(
      lines[2],
      /^ {2}record_written +outcome +turns +posted +results +steps +tokens_in +tokens_out +cost_usd +wake$/,
    );
    assert.match(
      lines[3],
      /^ {2}\S+Z +ok\/narration +1 +1 +spoke:1 +2 +\d+ +\d+ +\S+ +[0-9a-f]{32}$/,
    );
    assert.equal(lines.length, 6);
    assert.match(
      lines[5],
      new RegExp(`^ {2}in flight: messages/${ITEM} pid ${2 ** 23} .*\\(stale`),
    );
  },
});
