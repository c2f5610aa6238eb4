/**
 * A note writer for the working-state process test: says `ready`, waits for one line on stdin
 * (so two writers start together), then writes `count` notes `<prefix>/<i>` to one timeline's
 * working state and says `done`.
 * Usage: notes_child.ts <home> <timeline> <prefix> <count>
 */
import { WorkingStateStore } from "../../lib/home/working_state.ts";

const [home, timeline, prefix, count] = Deno.args;
const store = new WorkingStateStore(home, timeline);
console.log("ready");
await Deno.stdin.read(new Uint8Array(16));
for (let i = 0; i < Number(count); i++) {
  await store.write(`${prefix}/${i}`, `note ${i} of ${prefix}`);
}
console.log("done");
