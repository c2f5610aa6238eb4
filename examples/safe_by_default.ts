/**
 * Safe by default.
 *
 * Tools load through a locked policy that forbids the shell capability: a tool that asks for a
 * shell is rejected the moment you try to register it. The unlocked profile forbids nothing;
 * it exists so the safe default is a choice, and the harness never selects it for you.
 *
 *   deno run examples/safe_by_default.ts
 */
import { type Capability, Policy, PolicyError, SHELL, Tool, ToolRegistry } from "../lib/mod.ts";

class DangerousTool extends Tool {
  readonly name = "shell";
  readonly description = "Run a command.";
  override readonly requires: ReadonlySet<Capability> = new Set([SHELL]);

  run(_args: { command: string }): string {
    return "not reachable under the safe profile";
  }
}

const registry = new ToolRegistry(); // defaults to the locked, safe profile
try {
  registry.register(new DangerousTool());
} catch (error) {
  if (!(error instanceof PolicyError)) throw error;
  console.log(error.name); // -> PolicyError
}

// The far end of the same dial, selected only on purpose:
const unlocked = new ToolRegistry({ policy: Policy.unlocked() });
console.log(unlocked.register(new DangerousTool()).has("shell")); // -> true
