/**
 * A child process for the cross-process claim races: announces itself ready, waits for the
 * starting gun (a file), then claims or takes over one item, reports the outcome in a file and
 * lives on (as a real wake would) until the parent says every racer has reported.
 * Usage: claim_child.ts <claim|takeover> <home> <timeline> <item> <gate-dir> <index>
 */
import { join } from "node:path";
import { ClaimStore } from "../../lib/home/claims.ts";

const [mode, home, timeline, item, gate, index] = Deno.args;
await Deno.writeTextFile(join(gate, `ready-${index}`), "");
for (;;) {
  try {
    await Deno.stat(join(gate, "go"));
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
const store = new ClaimStore(home);
const outcome = mode === "claim"
  ? await store.claim("messages", timeline, item)
  : (await store.takeOver("messages", timeline, item) ? "won" : "lost");
// Report, then stay alive until every racer has reported: a winner that exited at once would be
// a dead owner, and a later racer would rightly take the claim over from it.
await Deno.writeTextFile(join(gate, `done-${index}`), `${outcome} ${store.wakeId}`);
for (;;) {
  try {
    await Deno.stat(join(gate, "exit"));
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
