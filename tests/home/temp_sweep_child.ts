/**
 * A wake-like child for the stranded-temp tests: drops its run permission (as the locked policy
 * does), optionally after taking a liveness snapshot, then sweeps one timeline's temps and
 * prints how many it removed.
 * Usage: temp_sweep_child.ts <snapshot|plain> <home> <timeline>
 */
import { livenessSnapshot, processAlive } from "../../lib/home/liveness.ts";
import { sweepStaleTemps } from "../../lib/home/temps.ts";

const [mode, home, timeline] = Deno.args;
const isAlive = mode === "snapshot" ? livenessSnapshot(home, timeline) : processAlive;
await Deno.permissions.revoke({ name: "run" });
console.log(`removed ${sweepStaleTemps(home, timeline, { isAlive }).removed.length}`);
