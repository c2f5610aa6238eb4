/**
 * A separate appender process for the concurrency test:
 * `deno run -A append_worker.ts <home> <timeline> <count> <tag> <startAtMs>` waits for the wall
 * clock to reach `startAtMs` (so both workers start together however slowly each boots), then
 * appends `count` records, each right after the other, to the timeline's chain.
 */
import { appendTurnRecord } from "../../../lib/home/records/mod.ts";
import { turnInput } from "./fixture.ts";

const [home, timeline, count, tag, startAt] = Deno.args;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
for (let i = 0; i < Number(count); i++) {
  await appendTurnRecord(home, turnInput(i, { timeline, wakeId: `${tag}-${i}` }));
}
