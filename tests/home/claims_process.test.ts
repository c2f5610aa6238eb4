/**
 * Claims across real processes (docs/home-layout.md#concurrency-and-locking): exclusivity comes
 * only from the hard-link create-if-absent and the take-over token, so N `deno run` children
 * released together race on one item, and exactly one may win.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ClaimStore } from "../../lib/home/claims.ts";
import { ITEM, runChild, TL, withHome } from "./helpers.ts";

const CHILD = new URL("./claim_child.ts", import.meta.url).pathname;
const RACERS = 8;

/** Spawns the racers, releases them together once all are ready, returns their stdout lines. */
async function race(mode: "claim" | "takeover", home: string): Promise<string[]> {
  const gate = await Deno.makeTempDir({ dir: home, prefix: "gate-" });
  const children = Array.from({ length: RACERS }, (_, i) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-write",
        "--allow-run", // kill(pid, 0) is guarded by it, as in a wake before it drops the permission
        CHILD,
        mode,
        home,
        TL,
        ITEM,
        gate,
        String(i),
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn());
  const deadline = Date.now() + 60_000;
  const count = async (prefix: string) =>
    (await Array.fromAsync(Deno.readDir(gate))).filter((e) => e.name.startsWith(prefix)).length;
  while (await count("ready-") < RACERS) {
    assert.ok(Date.now() < deadline, "children never became ready");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Deno.writeTextFile(join(gate, "go"), "");
  // Every racer stays alive until all have reported, so no winner is a dead owner yet.
  while (await count("done-") < RACERS) {
    assert.ok(Date.now() < deadline, "children never reported");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const lines = await Promise.all(
    Array.from({ length: RACERS }, (_, i) => Deno.readTextFile(join(gate, `done-${i}`))),
  );
  await Deno.writeTextFile(join(gate, "exit"), "");
  const statuses = await Promise.all(children.map((child) => child.status));
  for (const status of statuses) assert.equal(status.code, 0);
  return lines;
}

Deno.test("8 processes claiming one item: exactly one wins, and the claim names it", () =>
  withHome(async (home) => {
    const lines = await race("claim", home);
    const winners = lines.filter((line) => line.startsWith("won "));
    assert.equal(winners.length, 1, lines.join("\n"));
    const record = await new ClaimStore(home).read("messages", TL, ITEM);
    assert.equal(record?.phase, "in-flight");
    assert.equal(record?.wake, winners[0].slice("won ".length));
  }));

Deno.test("8 processes taking over one orphan: exactly one wins the token", () =>
  withHome(async (home) => {
    // The orphan's owner: a process that has already exited.
    const gone = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
    await gone.status;
    await new ClaimStore(home, { pid: gone.pid }).claim("messages", TL, ITEM);
    const lines = await race("takeover", home);
    const winners = lines.filter((line) => line.startsWith("won "));
    assert.equal(winners.length, 1, lines.join("\n"));
    const record = await new ClaimStore(home).owner("messages", TL, ITEM);
    assert.equal(record?.wake, winners[0].slice("won ".length));
  }));

Deno.test("without the run permission a dead owner looks alive, unless snapshotted first", () =>
  withHome(async (home) => {
    const gone = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
    await gone.status;
    const owner = new ClaimStore(home, { pid: gone.pid });
    await owner.claim("messages", TL, "plain");
    await owner.claim("messages", TL, "snapshot");
    const child = new URL("./liveness_child.ts", import.meta.url);
    const run = (mode: string) => runChild(child, [mode, home, TL, mode]);
    assert.equal(await run("plain"), "lost", "cannot tell, so it must not take over");
    assert.equal(await run("snapshot"), "won", "judged before the permission went");
  }));
