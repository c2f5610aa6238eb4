/**
 * The settled-claims index (lib/home/settled_index.ts): a claim seen final is named once and
 * never read again by the liveness snapshot or the unsettled scan; everything else still is.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeClaimRecord } from "../../lib/home/claim_record.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { livenessSnapshot } from "../../lib/home/liveness.ts";
import { readSettledIndex, rememberSettled, SETTLED_INDEX } from "../../lib/home/settled_index.ts";
import { put, read, TL, withHome } from "./helpers.ts";

const DIR = `claims/messages/${TL}`;
const T0 = 1755500000.25;
const done = encodeClaimRecord({ phase: "done", pid: null, wake: null, at: T0 });
const inFlight = (pid: number) =>
  encodeClaimRecord({ phase: "in-flight", pid, wake: "f".repeat(32), at: T0 });

/** A timeline's history: settled claims of every spelling, one live claim, a token, a corrupt one. */
async function history(home: string): Promise<void> {
  for (let i = 0; i < 20; i++) await put(home, `${DIR}/done-${i}.claim`, done);
  await put(
    home,
    `${DIR}/gave-up.claim`,
    encodeClaimRecord({ phase: "abandoned", pid: null, wake: null, at: T0, reason: "billing" }),
  );
  await put(home, `${DIR}/legacy.claim`, "");
  await put(home, `${DIR}/live.claim`, inFlight(4242));
  await put(home, `${DIR}/.live.takeover.${"e".repeat(32)}`, inFlight(4343));
  await put(home, `${DIR}/corrupt.claim`, '{"phase": "do');
}

const SETTLED = [...Array.from({ length: 20 }, (_, i) => `done-${i}.claim`), "gave-up.claim"]
  .concat("legacy.claim").sort();

Deno.test("settled index: appended whole lines; a torn line or a foreign line matches nothing", () =>
  withHome(async (home) => {
    const dir = join(home, DIR);
    assert.deepEqual(readSettledIndex(dir), new Set(), "no index yet");
    rememberSettled(join(home, "claims/nowhere"), ["a.claim"]); // a missing directory: no throw
    await Deno.mkdir(dir, { recursive: true });
    rememberSettled(dir, ["a.claim", "b.claim"]);
    rememberSettled(dir, []);
    rememberSettled(dir, ["c.claim"]);
    assert.equal(await read(home, `${DIR}/${SETTLED_INDEX}`), "\na.claim\nb.claim\n\nc.claim\n");
    // A crash tore an append; something else wrote a line that is not a claim's name.
    await Deno.writeTextFile(join(dir, SETTLED_INDEX), "notes\nd.cl", { append: true });
    assert.deepEqual(readSettledIndex(dir), new Set(["a.claim", "b.claim", "c.claim"]));
    // The next append starts on a fresh line, so the torn one swallows nothing.
    rememberSettled(dir, ["e.claim"]);
    assert.deepEqual(readSettledIndex(dir), new Set(["a.claim", "b.claim", "c.claim", "e.claim"]));
  }));

Deno.test("liveness snapshot: indexes what is final, then never reads it again", () =>
  withHome(async (home) => {
    await history(home);
    const asked: number[] = [];
    const probe = (pid: number) => (asked.push(pid), true);
    livenessSnapshot(home, TL, probe);
    assert.deepEqual(asked.sort(), [4242, 4343]);
    assert.deepEqual([...readSettledIndex(join(home, DIR))].sort(), SETTLED);
    // Settled claims never change again; rewriting one here proves the next snapshot skips it.
    await put(home, `${DIR}/done-3.claim`, inFlight(777));
    asked.length = 0;
    livenessSnapshot(home, TL, probe);
    assert.deepEqual(asked.sort(), [4242, 4343], "done-3 was not read; live claims still are");
    assert.equal(
      (await read(home, `${DIR}/${SETTLED_INDEX}`)).split("\n").filter(Boolean).length,
      SETTLED.length,
      "nothing new to index, nothing appended",
    );
  }));

Deno.test("liveness snapshot: a claim committed since the last wake is indexed then", () =>
  withHome(async (home) => {
    await history(home);
    await put(home, `${DIR}/later.claim`, inFlight(4545));
    livenessSnapshot(home, TL, () => true);
    await put(home, `${DIR}/later.claim`, done);
    await put(home, `${DIR}/live.claim`, done);
    const asked: number[] = [];
    livenessSnapshot(home, TL, (pid) => (asked.push(pid), true));
    assert.deepEqual(asked, [4343], "only the token is left to judge");
    const index = readSettledIndex(join(home, DIR));
    assert.ok(index.has("later.claim"));
    assert.ok(!index.has("live.claim"), "a claim a take-over token names is never indexed");
    assert.ok(!index.has("corrupt.claim"), "unreadable: read again");
  }));

Deno.test("a take-over that rewrote an indexed claim back in flight is seen by both scans", () =>
  withHome(async (home) => {
    // Wake A committed M while wake B, which had judged M's dead owner, won the take-over token;
    // a third wake indexed M as done; then B's rename put its in-flight record over M.
    await history(home);
    const store = new ClaimStore(home);
    livenessSnapshot(home, TL, () => true);
    assert.ok(readSettledIndex(join(home, DIR)).has("done-4.claim"));
    await put(home, `${DIR}/.done-4.takeover.${"d".repeat(32)}`, inFlight(5151));
    await put(home, `${DIR}/done-4.claim`, inFlight(5151));
    const asked: number[] = [];
    livenessSnapshot(home, TL, (pid) => (asked.push(pid), true));
    assert.deepEqual(asked.sort(), [4242, 4343, 5151]);
    assert.deepEqual(await store.unsettled("messages", TL), ["done-4", "live"]);
  }));

Deno.test("unsettled: builds and honours the same index", () =>
  withHome(async (home) => {
    await history(home);
    const store = new ClaimStore(home);
    assert.deepEqual(await store.unsettled("messages", TL), ["live"]);
    assert.deepEqual([...readSettledIndex(join(home, DIR))].sort(), SETTLED);
    await put(home, `${DIR}/done-7.claim`, inFlight(777));
    assert.deepEqual(await store.unsettled("messages", TL), ["live"], "done-7 was not read");
    // An index naming a claim file that is gone is harmless.
    await Deno.remove(join(home, DIR, "done-8.claim"));
    assert.deepEqual(await store.unsettled("messages", TL), ["live"]);
  }));

Deno.test("without its index (deleted, or never written) every claim is read as before", () =>
  withHome(async (home) => {
    await history(home);
    const store = new ClaimStore(home);
    await store.unsettled("messages", TL);
    await Deno.remove(join(home, DIR, SETTLED_INDEX));
    await put(home, `${DIR}/done-5.claim`, inFlight(777));
    assert.deepEqual(await store.unsettled("messages", TL), ["done-5", "live"]);
  }));
