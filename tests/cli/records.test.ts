/**
 * `harness records` as a process: verify names each damaged chain's first bad line as
 * `records/<file>:<line>: <reason>` and exits 1; an intact home exits 0 with one summary line;
 * HARNESS_HOME unset is one stderr line and exit 1; stats prints a table or JSON.
 */
import assert from "node:assert/strict";
import { appendFile, truncate } from "node:fs/promises";
import { runCli } from "../support/run_cli.ts";
import { appendTurnRecord, chainPath } from "../../lib/home/records/mod.ts";
import { chainLines, putLines, turnInput, withHome, writeChain } from "../home/records/fixture.ts";

/** One timeline per kind of damage, plus an intact one. */
const TIMELINES = {
  edited: "00000000-0000-4000-8000-000000000001",
  deleted: "00000000-0000-4000-8000-000000000002",
  swapped: "00000000-0000-4000-8000-000000000003",
  truncated: "00000000-0000-4000-8000-000000000004",
  garbage: "00000000-0000-4000-8000-000000000005",
  intact: "00000000-0000-4000-8000-000000000006",
};

async function damagedHome(home: string): Promise<void> {
  for (const timeline of Object.values(TIMELINES)) await writeChain(home, 5, timeline);
  const edit = await chainLines(home, TIMELINES.edited);
  edit[1] = edit[1].replace('"model":"gpt-test"', '"model":"gpt-other"');
  await putLines(home, edit, TIMELINES.edited);
  const del = await chainLines(home, TIMELINES.deleted);
  del.splice(2, 1);
  await putLines(home, del, TIMELINES.deleted);
  const swap = await chainLines(home, TIMELINES.swapped);
  [swap[3], swap[4]] = [swap[4], swap[3]];
  await putLines(home, swap, TIMELINES.swapped);
  const cut = chainPath(home, TIMELINES.truncated);
  await truncate(cut, (await Deno.stat(cut)).size - 25);
  await appendFile(chainPath(home, TIMELINES.garbage), "{oops\n");
}

const env = (home: string) => ({ HARNESS_HOME: home });

Deno.test("records verify: an intact home exits 0 with one summary line", async () => {
  await withHome(async (home) => {
    await writeChain(home, 4, TIMELINES.intact);
    await writeChain(home, 3, TIMELINES.edited);
    const r = await runCli(["records", "verify"], { env: env(home) });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "records ok: 7 records in 2 chains\n", ""]);
  });
});

Deno.test("records verify: each damaged chain's first bad line, exit 1", async () => {
  await withHome(async (home) => {
    await damagedHome(home);
    const r = await runCli(["records", "verify"], { env: env(home) });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    const lines = r.stderr.trimEnd().split("\n");
    const heads = lines.map((line) => line.split(": ").slice(0, 2).join(": "));
    const t = TIMELINES;
    assert.deepEqual(heads, [
      `records/${t.edited}.jsonl:2: edited`,
      `records/${t.deleted}.jsonl:3: removed`,
      `records/${t.swapped}.jsonl:4: reordered`,
      `records/${t.truncated}.jsonl:5: torn`,
      `records/${t.garbage}.jsonl:6: invalid`,
    ]);
  });
});

Deno.test("records verify --timeline: only that chain is judged", async () => {
  await withHome(async (home) => {
    await damagedHome(home);
    const ok = await runCli(["records", "verify", "--timeline", TIMELINES.intact], {
      env: env(home),
    });
    assert.deepEqual([ok.code, ok.stdout], [0, "records ok: 5 records in 1 chain\n"]);
    const bad = await runCli(["records", "verify", "--timeline", TIMELINES.swapped], {
      env: env(home),
    });
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      new RegExp(`^records/${TIMELINES.swapped}\\.jsonl:4: reordered: .+\\n$`),
    );
  });
});

Deno.test("records: HARNESS_HOME unset is one stderr line and exit 1", async () => {
  for (const action of ["verify", "stats"]) {
    const r = await runCli(["records", action], { env: { HARNESS_HOME: "" } });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^harness records: HARNESS_HOME is not set;[^\n]*\n$/);
  }
});

Deno.test("records: a missing or unknown subcommand is a usage error (exit 2)", async () => {
  const none = await runCli(["records"], { env: { HARNESS_HOME: "/nonexistent" } });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /a subcommand is required: verify, stats or show/);
  const unknown = await runCli(["records", "verify", "extra"], {
    env: { HARNESS_HOME: "/nonexistent" },
  });
  assert.equal(unknown.code, 2);
});

Deno.test("records stats: a readable table, and JSON with --json", async () => {
  await withHome(async (home) => {
    const tl = TIMELINES.intact;
    for (let i = 1; i <= 20; i++) {
      await appendTurnRecord(home, turnInput(i, { timeline: tl, latencyMs: { total: i * 10 } }));
    }
    const table = await runCli(["records", "stats"], { env: env(home) });
    assert.equal(table.code, 0);
    const [header, row, ...rest] = table.stdout.trimEnd().split("\n");
    assert.deepEqual(rest, []);
    assert.match(header, /^timeline\s+turns\s+posts\s+tokens_in\s+tokens_out\s+cache_hit\s+p95_ms/);
    assert.deepEqual(row.split(/\s+/), [
      tl,
      "20",
      "20",
      "20000",
      "1000",
      "40.0%",
      "190",
      "0.0200",
      "0",
      "0",
      "0",
    ]);
    const json = await runCli(["records", "stats", "--json"], { env: env(home) });
    assert.equal(json.code, 0);
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.timelines[0].p95_latency_ms, 190);
    assert.equal(parsed.timelines[0].cache_hit_ratio, 0.4);
  });
});
