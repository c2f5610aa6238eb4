/**
 * When a wake of a timeline last started (docs/home-layout.md#breaker-files): `breaker/<q>.last`,
 * one Python float of epoch seconds, rewritten by every wake whether it engages anything or not.
 * The breaker's own window keeps only the wakes it counts, so this is what `harness status` reads
 * as a timeline's last wake.
 */
import { dirname } from "../base/paths.ts";
import { pythonFloatRepr } from "../pycompat/json.ts";
import { breakerPaths } from "./paths.ts";

/** Records that a wake of `timeline` started at `now` (epoch seconds; default the wall clock). */
export async function noteWake(
  home: string,
  timeline: string,
  now: number = Date.now() / 1000,
): Promise<void> {
  const path = breakerPaths(home, timeline).last;
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, pythonFloatRepr(now));
}
