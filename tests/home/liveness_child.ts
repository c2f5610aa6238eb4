/**
 * A wake-like child for the liveness tests: drops its run permission (as the locked policy
 * does), optionally after taking a liveness snapshot, then tries to take over one orphan.
 * Usage: liveness_child.ts <snapshot|plain> <home> <timeline> <item>
 */
import { ClaimStore } from "../../lib/home/claims.ts";
import { livenessSnapshot } from "../../lib/home/liveness.ts";

const [mode, home, timeline, item] = Deno.args;
const isAlive = mode === "snapshot" ? livenessSnapshot(home, timeline) : undefined;
await Deno.permissions.revoke({ name: "run" });
const store = new ClaimStore(home, { isAlive });
console.log(await store.takeOver("messages", timeline, item) ? "won" : "lost");
