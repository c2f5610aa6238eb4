/**
 * Each rule of the router twin, one at a time, with a real wake process per attempt (a tiny
 * recording script), and each rule switched off.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { WakeRouter } from "../../lib/sandbox/mod.ts";
import { AGENTS, linesOf, ManualClock, recorder, twin } from "./router_support.ts";

Deno.test("dedup: a delivery that woke is dropped when delivered again; only success is remembered", async () => {
  await using rec = await recorder();
  const t = twin(rec);
  const ok = t.deliver(AGENTS.a);
  await t.router.idle();
  assert.ok(t.router.redeliver(ok));
  await t.router.idle();
  assert.equal((await rec.runs()).length, 1, "the duplicate ran no process");
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["woke", "dedup"]);
  assert.equal(linesOf(t.lines, "dedup").length, 1);
  assert.match(
    linesOf(t.lines, "dedup")[0],
    new RegExp(`delivery=${ok} reason=duplicate_delivery`),
  );

  // A failed delivery is not remembered: delivered again after the fix, it runs — once.
  await rec.failing(true);
  const bad = t.deliver(AGENTS.a);
  await t.router.idle();
  await rec.failing(false);
  assert.ok(t.router.redeliver(bad));
  await t.router.idle();
  assert.ok(t.router.redeliver(bad)); // and a third delivery of it is a duplicate again
  await t.router.idle();
  const runs = (await rec.runs()).filter((r) => r.delivery === bad);
  assert.deepEqual(runs.map((r) => r.code), [1, 1, 1, 0]);
  assert.deepEqual(t.router.history.slice(2).map((r) => r.outcome), ["failed", "woke", "dedup"]);
  assert.equal(t.router.redeliver("0190a000-0000-7000-9000-ffffffffffff"), false);
  await t.router.close();
});

Deno.test("dedup off (dedupSeconds: 0): the same delivery runs every time", async () => {
  await using rec = await recorder();
  const t = twin(rec, { dedupSeconds: 0 });
  const id = t.deliver(AGENTS.a);
  await t.router.idle();
  t.router.redeliver(id);
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["woke", "woke"]);
  assert.equal((await rec.runs()).length, 2);
  await t.router.close();
});

Deno.test("dedup expires: past the ttl the same delivery wakes again", async () => {
  await using rec = await recorder();
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const t = twin(rec, { dedupSeconds: 600 }, clock);
  const id = t.deliver(AGENTS.a);
  await t.router.idle();
  clock.advance(599_000);
  t.router.redeliver(id);
  await t.router.idle();
  clock.advance(1_000);
  t.router.redeliver(id);
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["woke", "dedup", "woke"]);
  await t.router.close();
});

Deno.test("retries: 3 attempts on a non-zero exit, backoff 0.5 s then 1 s, the delivery id kept", async () => {
  await using rec = await recorder();
  await rec.failing(true);
  const t = twin(rec);
  const id = t.deliver(AGENTS.a);
  await t.router.idle();
  const runs = await rec.runs();
  assert.equal(runs.length, 3);
  assert.ok(runs.every((r) => r.delivery === id && r.code === 1));
  const [record] = t.router.history;
  assert.equal(record.outcome, "failed");
  assert.equal(record.code, 1);
  assert.deepEqual(record.attempts.map((a) => a.attempt), [1, 2, 3]);
  const retries = linesOf(t.lines, "retry");
  assert.equal(retries.length, 2);
  assert.match(retries[0], /attempt=1\/3 code=1 backoff_ms=500$/);
  assert.match(retries[1], /attempt=2\/3 code=1 backoff_ms=1000$/);
  assert.match(linesOf(t.lines, "failed")[0], /attempts=3 code=1$/);
  // The backoff is waited out between attempts (a lower bound, which load can only lengthen).
  const gap = (i: number) =>
    Date.parse(record.attempts[i].startedAt) - Date.parse(record.attempts[i - 1].finishedAt);
  assert.ok(gap(1) >= 500, `waited ${gap(1)} ms before attempt 2`);
  assert.ok(gap(2) >= 1000, `waited ${gap(2)} ms before attempt 3`);
  await t.router.close();
});

Deno.test("retries: a wake that succeeds on its second attempt is a success, deduped after", async () => {
  await using rec = await recorder();
  await rec.failingOnce();
  const t = twin(rec, { backoffMs: 200 });
  const id = t.deliver(AGENTS.a);
  await t.router.idle();
  const [record] = t.router.history;
  assert.equal(record.outcome, "woke");
  assert.deepEqual(record.attempts.map((a) => a.code), [1, 0]);
  t.router.redeliver(id);
  await t.router.idle();
  assert.equal(t.router.history[1].outcome, "dedup");
  await t.router.close();
});

Deno.test("retries off (attempts: 1): one attempt, then failed", async () => {
  await using rec = await recorder();
  await rec.failing(true);
  const t = twin(rec, { attempts: 1 });
  t.deliver(AGENTS.a);
  await t.router.idle();
  assert.equal((await rec.runs()).length, 1);
  assert.equal(t.router.history[0].outcome, "failed");
  assert.equal(linesOf(t.lines, "retry").length, 0);
  await t.router.close();
});

Deno.test("a command that cannot start counts as a failed attempt and is retried", async () => {
  const dir = await Deno.makeTempDir({ prefix: "router-twin-" });
  try {
    const lines: string[] = [];
    const router = new WakeRouter({
      command: "true",
      baseUrl: "http://127.0.0.1:9",
      // A file where the agents' homes should go: the home cannot be made, the wake cannot start.
      homeRoot: join(dir, "file"),
      directory: { viewers: () => [AGENTS.a], tokenFor: () => "tok" },
      log: (line) => lines.push(line),
      rules: { backoffMs: 0 },
    });
    await Deno.writeTextFile(join(dir, "file"), "");
    router.dispatch({
      event: "message.created",
      timeline: "t",
      item: "i",
      actor: AGENTS.h.uuid,
      at: new Date().toISOString(),
    });
    await router.idle();
    const [record] = router.history;
    assert.equal(record.outcome, "failed");
    assert.deepEqual(record.attempts.map((a) => a.code), [null, null, null]);
    assert.ok(record.attempts.every((a) => a.error));
    assert.equal(lines.filter((l) => l.startsWith("sandbox wake error ")).length, 3);
    assert.equal(lines.filter((l) => / code=none ms=/.test(l)).length, 3);
    await router.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rate caps: the agent cap trips, refuses while cooling down, resets after; a refusal is not deduped", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const caps = { agent: 2, timeline: 0, windowSeconds: 60, cooldownSeconds: 60 };
  const t = twin(rec, { rateCaps: caps }, clock);
  for (let i = 0; i < 2; i++) {
    t.deliver(AGENTS.a);
    await t.router.idle();
    clock.advance(1_000);
  }
  const tripped = t.deliver(AGENTS.a);
  await t.router.idle();
  clock.advance(30_000);
  t.deliver(AGENTS.a);
  await t.router.idle();
  // Another agent is not held back by a's cap.
  t.deliver(AGENTS.b);
  await t.router.idle();
  assert.deepEqual(
    t.router.history.map((r) => `${r.handle}:${r.outcome}`),
    ["a:woke", "a:woke", "a:rate-refused", "a:rate-refused", "b:woke"],
  );
  const refused = linesOf(t.lines, "rate-refused");
  assert.match(refused[0], / scope=agent state=tripped count=3$/);
  assert.match(refused[1], / scope=agent state=open count=0$/);
  assert.equal((await rec.runs()).length, 3);
  // Past the cooldown the window starts empty; the refused delivery, delivered again, wakes.
  clock.advance(31_000);
  t.router.redeliver(tripped);
  await t.router.idle();
  assert.equal(t.router.history.at(-1)!.outcome, "woke");
  assert.match(linesOf(t.lines, "rate-reset")[0], / scope=agent$/);
  await t.router.close();
});

Deno.test("rate caps: the (agent, timeline) cap trips on one timeline while others still wake", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const caps = { agent: 20, timeline: 1, windowSeconds: 60, cooldownSeconds: 60 };
  const t = twin(rec, { rateCaps: caps }, clock);
  const one = "0190b000-0000-7000-8000-000000000001";
  const two = "0190b000-0000-7000-8000-000000000002";
  t.deliver(AGENTS.a, { timeline: one });
  await t.router.idle();
  t.deliver(AGENTS.a, { timeline: one });
  await t.router.idle();
  t.deliver(AGENTS.a, { timeline: two });
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["woke", "rate-refused", "woke"]);
  assert.match(linesOf(t.lines, "rate-refused")[0], / scope=timeline state=tripped count=2$/);
  await t.router.close();
});

Deno.test("rate caps: the fleet's defaults let 20 wakes of an agent through in a minute, not 21", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const t = twin(rec, {}, clock);
  // Spread over timelines so the 15-per-timeline cap stays out of the way.
  for (let i = 0; i < 21; i++) {
    t.deliver(AGENTS.a, { timeline: `0190b000-0000-7000-8000-0000000000${10 + (i % 3)}` });
    await t.router.idle();
    clock.advance(500);
  }
  const outcomes = t.router.history.map((r) => r.outcome);
  assert.equal(outcomes.filter((o) => o === "woke").length, 20);
  assert.equal(outcomes.at(-1), "rate-refused");
  await t.router.close();
});

Deno.test("rate caps off (rateCaps: null): nothing is refused", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const t = twin(rec, { rateCaps: null }, clock);
  for (let i = 0; i < 25; i++) {
    t.deliver(AGENTS.a);
    await t.router.idle();
  }
  assert.ok(t.router.history.every((r) => r.outcome === "woke"));
  assert.equal(t.router.history.length, 25);
  await t.router.close();
});

Deno.test("coalescing: covered only when a successful wake started strictly after occurred_at truncated to the second", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.500Z");
  const t = twin(rec, { coalesce: true }, clock);
  const first = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.100Z" });
  await t.router.idle(); // started at 10:00:00.500
  // Later in the same second: truncated to 10:00:00.000, before the start — covered.
  const same = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.900Z" });
  await t.router.idle();
  // The next second: 10:00:01.000 is after the start — not covered, it wakes (at 10:00:01.000).
  clock.set("2026-06-09T10:00:01.000Z");
  const next = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:01.000Z" });
  await t.router.idle();
  // A start equal to the truncated time is not "strictly after": the wake that started at
  // 10:00:01.000 does not cover an event of 10:00:01.400 (truncated 10:00:01.000).
  clock.set("2026-06-09T10:00:02.000Z");
  const equal = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:01.400Z" });
  await t.router.idle();
  // Another timeline is its own stream.
  const other = t.deliver(AGENTS.a, {
    occurredAt: "2026-06-09T10:00:00.200Z",
    timeline: "0190b000-0000-7000-8000-000000000009",
  });
  await t.router.idle();
  // Another agent is its own stream too.
  const peer = t.deliver(AGENTS.b, { occurredAt: "2026-06-09T10:00:00.200Z" });
  await t.router.idle();
  const fate = (id: string) => t.router.history.find((r) => r.delivery === id)!.outcome;
  assert.equal(fate(first), "woke");
  assert.equal(fate(same), "coalesced");
  assert.equal(fate(next), "woke");
  assert.equal(fate(equal), "woke");
  assert.equal(fate(other), "woke");
  assert.equal(fate(peer), "woke");
  const line = linesOf(t.lines, "coalesced")[0];
  assert.ok(line.includes(`delivery=${same}`));
  assert.ok(line.endsWith(
    `occurred_at=2026-06-09T10:00:00.900Z covered_by=${first} started_at=2026-06-09T10:00:00.500Z`,
  ));
  assert.equal(t.router.history.find((r) => r.delivery === same)!.attempts.length, 0);
  await t.router.close();
});

Deno.test("coalescing: the exact boundary — a start at the same whole second does not cover", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:05.000Z");
  const t = twin(rec, { coalesce: true }, clock);
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:04.000Z" });
  await t.router.idle(); // started exactly 10:00:05.000
  const at = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:05.999Z" });
  await t.router.idle();
  clock.set("2026-06-09T10:00:06.001Z");
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:05.999Z" }); // wakes, started at 06.001
  await t.router.idle();
  const after = t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:06.999Z" });
  await t.router.idle();
  const outcomes = t.router.history.map((r) => r.outcome);
  assert.deepEqual(outcomes, ["woke", "woke", "woke", "coalesced"]);
  assert.equal(t.router.history[1].delivery, at);
  assert.equal(t.router.history[3].delivery, after);
  await t.router.close();
});

Deno.test("coalescing: a failed wake covers nothing", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.500Z");
  const t = twin(rec, { attempts: 1, coalesce: true }, clock);
  await rec.failing(true);
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.100Z" });
  await t.router.idle();
  await rec.failing(false);
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.200Z" });
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["failed", "woke"]);
  await t.router.close();
});

Deno.test("coalescing: deliveries queued behind a running wake collapse into one follow-up", async () => {
  await using rec = await recorder(0.3);
  const clock = new ManualClock("2026-06-09T10:00:00.500Z");
  const t = twin(rec, { coalesce: true }, clock);
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.100Z" });
  // While the first wake runs, three more events happen a second later and queue behind it.
  while (linesOf(t.lines, "start").length === 0) await new Promise((r) => setTimeout(r, 5));
  clock.set("2026-06-09T10:00:01.500Z");
  for (let i = 0; i < 3; i++) t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:01.200Z" });
  await t.router.idle();
  // The first of them wakes (its event came after the first wake started); that follow-up
  // started after the other two happened, so it covers them: N deliveries, one follow-up.
  assert.deepEqual(t.router.history.map((r) => r.outcome), [
    "woke",
    "woke",
    "coalesced",
    "coalesced",
  ]);
  assert.equal((await rec.runs()).length, 2);
  await t.router.close();
});

Deno.test("coalescing off (coalesce: false): every delivery runs", async () => {
  await using rec = await recorder(0);
  const clock = new ManualClock("2026-06-09T10:00:00.500Z");
  const t = twin(rec, {}, clock);
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.100Z" });
  await t.router.idle();
  t.deliver(AGENTS.a, { occurredAt: "2026-06-09T10:00:00.200Z" });
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["woke", "woke"]);
  await t.router.close();
});

Deno.test("round-robin: one lane is shared fairly; an agent's backlog does not starve another", async () => {
  await using rec = await recorder(0);
  const t = twin(rec, { lanes: 1 });
  t.router.hold();
  const a1 = t.deliver(AGENTS.a);
  const a2 = t.deliver(AGENTS.a);
  const a3 = t.deliver(AGENTS.a);
  const b1 = t.deliver(AGENTS.b);
  t.router.release();
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.delivery), [a1, b1, a2, a3]);
  await t.router.close();
});

Deno.test("lanes: at most N wakes at once across agents, one per agent, agents in parallel", async () => {
  let running = 0;
  let most = 0;
  let doubled = false;
  const perAgent = new Map<string, number>();
  const router = new WakeRouter({
    baseUrl: "http://127.0.0.1:9",
    directory: { viewers: () => [], tokenFor: () => "tok" },
    log: () => {},
    rules: { lanes: 2, coalesce: false },
    launcher: async (launch) => {
      running++;
      most = Math.max(most, running);
      const mine = (perAgent.get(launch.agent.uuid) ?? 0) + 1;
      perAgent.set(launch.agent.uuid, mine);
      doubled ||= mine > 1;
      const child = new Deno.Command("sleep", { args: ["0.2"] }).spawn();
      launch.track(child);
      const { code } = await child.status;
      launch.untrack(child);
      perAgent.set(launch.agent.uuid, mine - 1);
      running--;
      return { code };
    },
  });
  const agents = ["x", "y", "z"].map((handle, i) => ({
    uuid: `0190a000-0000-7000-8000-00000000010${i}`,
    handle,
    kind: "ai" as const,
  }));
  for (const agent of agents) {
    for (let i = 0; i < 2; i++) {
      router.deliver({
        event: "message.created",
        event_id: `d-${agent.handle}-${i}`,
        occurred_at: new Date().toISOString(),
        actor_uuid: null,
        recipient_uuid: agent.uuid,
        timeline_uuid: "t",
        resource: { type: "message", uuid: "m", url: "http://127.0.0.1:9/messages/m" },
      }, agent);
    }
  }
  await router.idle();
  assert.equal(most, 2, "two lanes were used, never three");
  assert.equal(doubled, false, "never two wakes of one agent at once");
  assert.equal(router.history.length, 6);
  assert.ok(router.history.every((r) => r.outcome === "woke"));
  await router.close();
});

Deno.test("wake-lock: a held or unreadable-time lock refuses, a stale one wakes, none wakes; off ignores it", async () => {
  await using rec = await recorder(0);
  const locks = join(rec.dir, "locks");
  await Deno.mkdir(locks);
  const clock = new ManualClock("2026-06-09T10:00:00.000Z");
  const t = twin(rec, { wakeLockDir: locks }, clock);
  const lock = (body: string) => Deno.writeTextFile(join(locks, "a.lock"), body);
  await lock(JSON.stringify({ agent: "a", reason: "upgrade", expires_at: "2026-06-09T10:05:00Z" }));
  t.deliver(AGENTS.a);
  await t.router.idle();
  await lock("not json");
  t.deliver(AGENTS.a);
  await t.router.idle();
  await lock(JSON.stringify({ expires_at: "2026-06-09T09:59:00Z" }));
  t.deliver(AGENTS.a);
  await t.router.idle();
  await Deno.remove(join(locks, "a.lock"));
  t.deliver(AGENTS.a);
  await t.router.idle();
  assert.deepEqual(t.router.history.map((r) => r.outcome), [
    "wake-locked",
    "wake-locked",
    "woke",
    "woke",
  ]);
  const locked = linesOf(t.lines, "locked");
  assert.match(locked[0], /reason=wake_lock_held detail="until 2026-06-09T10:05:00.000Z"$/);
  assert.match(locked[1], /reason=wake_lock_unparseable/);
  assert.equal(linesOf(t.lines, "lock-stale").length, 1);
  assert.equal((await rec.runs()).length, 2);
  await t.router.close();

  const off = twin(rec, { wakeLockDir: null }, clock);
  await lock(JSON.stringify({ expires_at: "2026-06-09T10:05:00Z" }));
  off.deliver(AGENTS.a);
  await off.router.idle();
  assert.equal(off.router.history[0].outcome, "woke");
  await off.router.close();
});

Deno.test("delivery id: passed on only when it matches [A-Za-z0-9_.:-]{1,128}; the wake runs either way", async () => {
  await using rec = await recorder(0);
  const t = twin(rec);
  t.deliver(AGENTS.a, { id: "evt_01:ok.id-x" });
  t.deliver(AGENTS.a, { id: "not safe; rm -rf" });
  t.deliver(AGENTS.a, { id: "x".repeat(129) });
  await t.router.idle();
  const runs = await rec.runs();
  assert.deepEqual(runs.map((r) => r.delivery), ["evt_01:ok.id-x", null, null]);
  assert.equal(linesOf(t.lines, "unsafe-delivery-id").length, 2);
  assert.ok(t.router.history.every((r) => r.outcome === "woke"));
  await t.router.close();
});

Deno.test("closing drops what is queued and stops a backoff wait", async () => {
  await using rec = await recorder(0);
  await rec.failing(true);
  const t = twin(rec, { backoffMs: 60_000 });
  t.deliver(AGENTS.a);
  t.deliver(AGENTS.a);
  while (linesOf(t.lines, "retry").length === 0) await new Promise((r) => setTimeout(r, 5));
  await t.router.close();
  assert.deepEqual(t.router.history.map((r) => r.outcome), ["dropped"]);
  t.deliver(AGENTS.a);
  await t.router.idle();
  assert.equal(t.router.history.length, 1, "nothing runs after close");
});
