/**
 * Stray entries under `records/` (docs/records.md#harness-records-verify---timeline-uuid---json):
 * a directory named like a chain, a symbolic link, a file of another name are skipped and named
 * on stderr by `records verify`, `stats` and `show`, which still read every real chain; a chain
 * whose own name is taken by a directory (its head beside it) is that chain's bad line, not a
 * failure of every chain.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { chainPath, headPath } from "../../lib/home/records/mod.ts";
import { withHome, writeChain } from "../home/records/fixture.ts";

const A = "00000000-0000-4000-8000-0000000000a1";
const B = "00000000-0000-4000-8000-0000000000b2";
const GONE = "00000000-0000-4000-8000-0000000000c3";
const env = (home: string) => ({ HARNESS_HOME: home });

/** Two intact chains and three stray entries. */
async function strayHome(home: string): Promise<void> {
  await writeChain(home, 3, A);
  await writeChain(home, 2, B);
  await Deno.mkdir(`${home}/records/backup.jsonl`);
  await Deno.writeTextFile(`${home}/records/notes.txt`, "an operator's note\n");
  await Deno.symlink(chainPath(home, A), `${home}/records/${B}-copy.jsonl`);
}

const SKIPPED = (b: string) => [
  `records/${b}-copy.jsonl: skipped: a symbolic link, not a chain file`,
  "records/backup.jsonl: skipped: a directory, not a chain file",
  "records/notes.txt: skipped: not a chain, head or anchor file",
];

Deno.test("records verify: stray entries are skipped and named; the chains verify", async () => {
  await withHome(async (home) => {
    await strayHome(home);
    const r = await runCli(["records", "verify"], { env: env(home) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "records ok: 5 records in 2 chains\n");
    assert.deepEqual(r.stderr.trimEnd().split("\n"), SKIPPED(B));
    const json = await runCli(["records", "verify", "--json"], { env: env(home) });
    assert.equal(json.code, 0);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(report.skipped.map((s: { entry: string }) => s.entry), [
      `records/${B}-copy.jsonl`,
      "records/backup.jsonl",
      "records/notes.txt",
    ]);
  });
});

Deno.test("records stats and show: stray entries are named on stderr and every chain is read", async () => {
  await withHome(async (home) => {
    await strayHome(home);
    const stats = await runCli(["records", "stats", "--json"], { env: env(home) });
    assert.equal(stats.code, 0, stats.stderr);
    const rows = JSON.parse(stats.stdout).timelines;
    assert.deepEqual(rows.map((r: { timeline: string; turns: number }) => [r.timeline, r.turns]), [
      [A, 3],
      [B, 2],
    ]);
    assert.deepEqual(stats.stderr.trimEnd().split("\n"), SKIPPED(B));
    const drift = await runCli(["records", "stats", "--since", "1d", "--json"], { env: env(home) });
    assert.equal(drift.code, 0, drift.stderr);
    assert.equal(JSON.parse(drift.stdout).total.turns, 5);
    const show = await runCli(["records", "show", "--json"], { env: env(home) });
    assert.equal(show.code, 0, show.stderr);
    assert.equal(JSON.parse(show.stdout).turns.length, 5);
    assert.deepEqual(show.stderr.trimEnd().split("\n"), SKIPPED(B));
  });
});

Deno.test("records verify: a chain whose name is taken by a directory is that chain's bad line", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3, A);
    await writeChain(home, 2, GONE);
    await Deno.remove(chainPath(home, GONE));
    await Deno.mkdir(chainPath(home, GONE));
    const r = await runCli(["records", "verify"], { env: env(home) });
    assert.equal(r.code, 1);
    assert.deepEqual(r.stderr.trimEnd().split("\n"), [
      `records/${GONE}.jsonl: skipped: a directory, not a chain file`,
      `records/${GONE}.jsonl:1: invalid: the chain file's name is taken by a directory or a ` +
      "link, not a file",
    ]);
    // The other chain is read and counted all the same.
    const json = JSON.parse(
      (await runCli(["records", "verify", "--json"], { env: env(home) })).stdout,
    );
    assert.equal(json.records, 3);
    assert.ok(await Deno.stat(headPath(home, GONE)));
  });
});
