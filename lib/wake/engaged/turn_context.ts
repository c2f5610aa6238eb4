/**
 * What the turn record keeps of the turn's surroundings (docs/records.md#fields): the
 * conversation before the user turn, measured on the transcript's saved form, and the recalled
 * memory and working-state block exactly as this turn's request carried them. `harness replay
 * --with-history` rebuilds the turn from these (docs/records.md#replaying-with-history).
 */
import { measureHistory } from "../../core/transcript/history.ts";
import type { Message } from "../../core/types/message.ts";
import type { ContextInput } from "../../home/records/mod.ts";
import type { Wake } from "../wake_state.ts";

/**
 * The context of the turn whose user message sits at `turnStart` in `live`, with `block` the
 * working-state block its request carries (undefined: none).
 */
export async function turnContext(
  wake: Pick<Wake, "brief">,
  live: readonly Message[],
  turnStart: number,
  block: string | undefined,
): Promise<ContextInput> {
  const memory = wake.brief.parts?.find(([name]) => name === "memory")?.[1];
  return {
    history: await measureHistory(live.slice(0, turnStart)),
    memory,
    workingState: block || undefined,
  };
}
