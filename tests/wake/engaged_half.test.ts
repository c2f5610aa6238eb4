/**
 * The idle half of the wake knows the engaged half only by the interface lib/wake/engaged_half.ts
 * declares. This test holds the real module to it: `deno check` fails here when an export of
 * lib/wake/engaged/mod.ts no longer matches, and the run proves the lazy door loads that module.
 */
import assert from "node:assert/strict";
import * as half from "../../lib/wake/engaged/mod.ts";
import { engaged, type EngagedHalf } from "../../lib/wake/engaged_half.ts";

/** The module, typed as the interface: a signature that drifted is a type error on this line. */
const typed: EngagedHalf = half;

Deno.test("the lazy door loads lib/wake/engaged/mod.ts, whose exports are the interface's", async () => {
  const loaded = await engaged();
  const names = Object.keys(typed).sort() as (keyof EngagedHalf)[];
  assert.deepEqual(names, [
    "buildEngine",
    "drive",
    "engage",
    "loadWakeMcp",
  ]);
  for (const name of names) {
    assert.equal(loaded[name], half[name], `${name} is the module's own function`);
  }
});
