/**
 * `harness records stats --alert` through the real CLI (docs/records.md#alerting-on-drift): the
 * window's four drift numbers against the thresholds given — exit 1 naming each crossed one, 0
 * when none is, 3 when the window holds no turn — and every malformed threshold a usage error.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { turnInput } from "../home/records/fixture.ts";

/**
 * Four turns: the first had a gate refusal and escalated; latencies 121–124 ms (p95 124); each
 * read 400 of its 1000 input tokens from the cache (0.4).
 */
async function setUp() {
  const home = await Deno.makeTempDir({ prefix: "alert-cli-" });
  for (let i = 1; i <= 4; i++) {
    const first = i === 1;
    await appendTurnRecord(
      home,
      turnInput(i, {
        content: "full",
        inbound: { items: [`item-${i}`], text: `question ${i}` },
        gateVerdicts: first ? [{ kind: "message", verdict: "refused", checks: ["secrets"] }] : [],
        result: first ? "escalated" : "spoke",
        escalationReason: first ? "guardrail" : undefined,
      }),
    );
  }
  const env = { HARNESS_HOME: home, BASECRADLE_CONFIG_HOME: `${home}/config`, HOME: home };
  return { home, env, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

const stats = (env: Record<string, string>, ...args: string[]) =>
  runCli(["records", "stats", "--alert", ...args], { env });

Deno.test("records stats --alert: each crossed threshold is named and the exit is 1; a threshold met exactly is no alert", async () => {
  await using w = await setUp();
  const r = await stats(
    w.env,
    "--max-guardrail-failure-rate",
    "0.2",
    "--max-escalation-rate",
    "0.25",
    "--max-p95-latency-ms",
    "123",
    "--min-cache-hit-rate",
    "0.5",
  );
  assert.equal(r.code, 1, r.stderr);
  const alerts = r.stderr.trim().split("\n");
  assert.equal(alerts.length, 3, r.stderr);
  assert.match(
    alerts[0],
    /^harness records: ALERT guardrail_failure_rate 0\.2500 is over --max-guardrail-failure-rate 0\.2, since \S+ \(--since 1d\), 4 turn\(s\)$/,
  );
  assert.match(alerts[1], /ALERT p95_latency_ms 124 is over --max-p95-latency-ms 123,/);
  assert.match(alerts[2], /ALERT cache_hit_ratio 0\.4000 is under --min-cache-hit-rate 0\.5,/);
  assert.deepEqual(r.stdout.trim().split("\n").slice(1), [
    "ALERT guardrail_failure_rate 0.2500 (max 0.2)",
    "ok    escalation_rate 0.2500 (max 0.25)",
    "ALERT p95_latency_ms 124 (max 123)",
    "ALERT cache_hit_ratio 0.4000 (min 0.5)",
  ]);
});

Deno.test("records stats --alert: nothing crossed exits 0 with nothing on stderr; --json says the same", async () => {
  await using w = await setUp();
  const args = ["--max-guardrail-failure-rate", "0.25", "--min-cache-hit-rate", "0.4"];
  const r = await stats(w.env, "--since", "7d", ...args);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, /^records alert: since \S+ \(--since 7d\), 4 turn\(s\)\n/);
  const json = await stats(w.env, "--json", ...args, "--max-p95-latency-ms", "100");
  assert.equal(json.code, 1);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.turns, 4);
  assert.equal(doc.crossed, 1);
  assert.deepEqual(
    doc.checks.map((c: { metric: string; crossed: boolean }) => [c.metric, c.crossed]),
    // In the flags' fixed order, whatever order they were given in.
    [["guardrail_failure_rate", false], ["p95_latency_ms", true], ["cache_hit_ratio", false]],
  );
});

Deno.test("records stats --alert: a window without turns exits 3 and says so", async () => {
  await using w = await setUp();
  const other = "00000000-0000-4000-8000-000000000000";
  const empty = await Deno.makeTempDir({ prefix: "alert-empty-" });
  try {
    for (
      const env of [
        { ...w.env, HARNESS_HOME: empty },
        w.env,
      ]
    ) {
      const extra = env === w.env ? ["--timeline", other] : [];
      const r = await stats(env, "--max-escalation-rate", "0.1", ...extra);
      assert.equal(r.code, 3, `${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /no turns since \S+ \(--since 1d\): nothing to judge; exit 3\.\n$/);
      assert.equal(r.stdout, "");
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("records stats --alert: a malformed or misplaced threshold is a usage error naming it (exit 2)", async () => {
  await using w = await setUp();
  const cases: [string[], RegExp][] = [
    [["--alert"], /--alert needs at least one threshold: --max-guardrail-failure-rate/],
    [["--max-escalation-rate", "0.1"], /--max-escalation-rate is an option of stats --alert/],
    [["--alert", "--max-escalation-rate", "5%"], /'5%' must be a rate from 0 to 1 \(e\.g\. 0\.05/],
    [["--alert", "--min-cache-hit-rate", "1.5"], /'1\.5' must be a rate from 0 to 1/],
    [["--alert", "--max-p95-latency-ms=-1"], /'-1' must be a number of milliseconds from 0/],
    [["--alert", "--max-p95-latency-ms", "fast"], /'fast' must be a number of milliseconds/],
    [["--alert", "--max-p95-latency-ms", "1", "--since", "7"], /--since '7' is not a span/],
  ];
  for (const [args, why] of cases) {
    const r = await runCli(["records", "stats", ...args], { env: w.env });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, why);
  }
  const show = await runCli(["records", "show", "--alert", "--max-escalation-rate", "0.1"], {
    env: w.env,
  });
  assert.equal(show.code, 2, show.stderr);
});
