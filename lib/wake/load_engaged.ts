/**
 * The one door to the engaged-turn half of the wake (lib/wake/engaged.ts): imported with
 * `lazyImport`, so it stays off the start-up module graph of a wake with nothing to answer.
 */
import { lazyImport } from "../core/lazy_import.ts";

/** The engine, the tools, the provider and the brief; loaded by the first engaged turn. */
export function engaged(): Promise<typeof import("./engaged.ts")> {
  return lazyImport<typeof import("./engaged.ts")>("lib/wake/engaged.ts");
}
