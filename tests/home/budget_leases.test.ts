/**
 * Budget leases across real processes (docs/home-layout.md#budget-files): a lease counts while
 * the process that took it lives, and a process SIGKILLed between reserve and settle leaves
 * nothing that counts — its lease file is deleted by the next decision, and a budget lock it
 * held is free again. A lease released in the ordinary way is gone at once.
 */
import assert from "node:assert/strict";
import {
  BudgetLease,
  budgetLockPath,
  committedTotal,
  leasesDir,
  liveLeases,
  withBudgetLock,
} from "../../lib/home/budget_leases.ts";

const CHILD = new URL("./budget_lease_child.ts", import.meta.url).pathname;

/** Starts the child in `mode` and resolves once it says it holds what it took. */
async function startChild(mode: "lease" | "lock", home: string, tokens = 700) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", CHILD, mode, home, String(tokens)],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!said.includes("\n")) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the child exited before taking its ${mode}`);
    said += value;
  }
  return {
    child,
    said: said.trim(),
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      await reader.cancel();
      await child.stdin.close().catch(() => {});
    },
    async finish() {
      await child.stdin.close();
      assert.equal((await child.status).code, 0);
      await reader.cancel();
    },
  };
}

/** How many descriptors this process has open (Linux). */
async function openDescriptors(): Promise<number> {
  return (await Array.fromAsync(Deno.readDir("/proc/self/fd"))).length;
}

async function leaseFiles(home: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(leasesDir(home))) names.push(entry.name);
  return names.sort();
}

Deno.test("a lease counts while its process lives; SIGKILLed, it is dropped by the next decision", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-lease-" });
  try {
    const holder = await startChild("lease", home, 700);
    const id = holder.said.replace(/^held /, "");
    const live = await withBudgetLock(home, () => liveLeases(home));
    assert.equal(live.length, 1);
    assert.equal(live[0].id, id);
    assert.equal(live[0].pid, holder.child.pid);
    assert.deepEqual(committedTotal(live), { tokens: 700, usd: 0 });

    await holder.kill();
    assert.deepEqual(await leaseFiles(home), [`${id}.json`]); // the file outlives the process…
    assert.deepEqual(await withBudgetLock(home, () => liveLeases(home)), []); // …not its weight
    assert.deepEqual(await leaseFiles(home), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a lease released by its process is gone at once", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-lease-" });
  try {
    const holder = await startChild("lease", home, 300);
    assert.equal((await withBudgetLock(home, () => liveLeases(home))).length, 1);
    await holder.finish();
    assert.deepEqual(await leaseFiles(home), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a process SIGKILLed holding the budget lock does not hold it any longer", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-lease-" });
  try {
    const holder = await startChild("lock", home);
    assert.equal(holder.said, "locked");
    // While it lives, the lock is taken (asked without waiting, on the lock file itself).
    const probe = await Deno.open(budgetLockPath(home), { read: true });
    assert.equal(await probe.tryLock(true), false);
    probe.close();
    await holder.kill();
    assert.equal(await withBudgetLock(home, () => Promise.resolve("free")), "free");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a lease records its turn's spend in place; what it commits is the larger of the two", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-lease-" });
  try {
    const lease = await withBudgetLock(
      home,
      () => BudgetLease.take(home, "tl", { tokens: 1000, usd: 0.5 }),
    );
    await withBudgetLock(home, () => lease.record({ tokens: 1200, usd: 0.1 }));
    // In this process too, a held lease is live: flock is per open file, not per process.
    const [view] = await withBudgetLock(home, () => liveLeases(home));
    assert.deepEqual(view.spent, { tokens: 1200, usd: 0.1 });
    assert.deepEqual(committedTotal([view]), { tokens: 1200, usd: 0.5 });
    // Each measure on its own: spend past the reservation in USD counts too.
    await withBudgetLock(home, () => lease.record({ tokens: 10, usd: 0.8 }));
    const [later] = await withBudgetLock(home, () => liveLeases(home));
    assert.deepEqual(committedTotal([later]), { tokens: 1000, usd: 0.8 });
    const text = JSON.parse(await Deno.readTextFile(`${leasesDir(home)}/${lease.id}.json`));
    assert.equal(text.timeline, "tl");
    assert.equal(text.pid, Deno.pid);
    const held = await openDescriptors();
    await withBudgetLock(home, () => lease.release());
    assert.deepEqual(await withBudgetLock(home, () => liveLeases(home)), []);
    // Released, it keeps no descriptor open: a wake takes one lease per turn.
    assert.equal(await openDescriptors(), held - 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a held lease whose contents do not parse commits nothing; a stray entry is left alone", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-lease-" });
  try {
    const take = () =>
      withBudgetLock(home, () => BudgetLease.take(home, "tl", { tokens: 10, usd: 0 }));
    const lease = await take();
    const odd = await take();
    await Deno.writeTextFile(`${leasesDir(home)}/${lease.id}.json`, "{not json");
    // JSON, but not a lease: a reservation that is not a number.
    const shape = { pid: 1, reserved: { tokens: "9e9", usd: 0 }, spent: { tokens: 0, usd: 0 } };
    await Deno.writeTextFile(
      `${leasesDir(home)}/${odd.id}.json`,
      JSON.stringify({ ...shape, taken_at: "2026-12-01T00:00:00Z", timeline: "tl" }),
    );
    await Deno.mkdir(`${leasesDir(home)}/stray.json`);
    await Deno.writeTextFile(`${leasesDir(home)}/notes.txt`, "an operator's note");
    assert.deepEqual(await withBudgetLock(home, () => liveLeases(home)), []);
    assert.deepEqual(
      await leaseFiles(home),
      [`${lease.id}.json`, `${odd.id}.json`, "notes.txt", "stray.json"].sort(),
    );
    await withBudgetLock(home, () => lease.release());
    await withBudgetLock(home, () => odd.release());
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
