/**
 * A separate appender process for the concurrency test:
 * `deno run -A append_worker.ts <home> <timeline> <count> <tag> <gate dir>` says it is ready by
 * creating `<gate dir>/ready-<tag>`, waits for `<gate dir>/go` (so both workers start together
 * however slowly each boots), then appends `count` records, each right after the other, to the
 * timeline's chain.
 */
import { appendTurnRecord } from "../../../lib/home/records/mod.ts";
import { turnInput } from "./fixture.ts";

const [home, timeline, count, tag, gate] = Deno.args;
await Deno.writeTextFile(`${gate}/ready-${tag}`, "");
while (!(await Deno.stat(`${gate}/go`).then(() => true, () => false))) {
  await new Promise((resolve) => setTimeout(resolve, 2));
}
for (let i = 0; i < Number(count); i++) {
  await appendTurnRecord(home, turnInput(i, { timeline, wakeId: `${tag}-${i}` }));
}
