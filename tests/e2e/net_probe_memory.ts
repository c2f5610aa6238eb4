/**
 * A custom memory provider (HARNESS_MEMORY_PROVIDER) that is really a network probe: in-process
 * code loaded the way an operator's module is, after the harness has narrowed its permissions.
 * On import it tries every metadata address form (net_probe.ts) and writes the results as JSON
 * to `$PROBE_OUT`; as a provider it does nothing.
 */
import { controlFromEnv, probeAll } from "./net_probe.ts";

const out = Deno.env.get("PROBE_OUT");
if (out) await Deno.writeTextFile(out, JSON.stringify(await probeAll(controlFromEnv())));

/** No tools, no hooks: the loader accepts an object with none of the optional surfaces. */
const provider: Record<string, never> = {};
export default provider;
