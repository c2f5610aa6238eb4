/**
 * A second process for the recall concurrency test: `deno run -A recall_writer_child.ts <home>
 * <prefix> <n>` observes n exchanges through its own provider, as an overlapping wake would.
 */
import { RecallMemoryProvider } from "../../lib/memory/recall_provider.ts";

const [home, prefix, count] = Deno.args;
const provider = new RecallMemoryProvider({ home });
for (let i = 0; i < Number(count); i++) {
  await provider.observe({
    user: `[2026-11-01T10:00:00Z] bob: ${prefix} fact number ${i} is ${prefix}${i}value`,
    assistant: `noted ${prefix} ${i}`,
    scope: { agent: "11111111-1111-4111-8111-111111111111", timeline: `${prefix}-timeline` },
  });
}
provider.close();
console.log("done");
