/**
 * The tool registry: the set of tools one agent may call, gated by its policy as each is added.
 * The engine runs whatever the registry holds, so the policy check here is the whole of
 * "what may run" — the engine itself knows nothing about safety.
 */
import { Policy, PolicyError } from "./policy.ts";
import type { Tool, ToolSpec } from "./types/tool.ts";

// Re-exported so the seed's "Safe by default" example needs one import line.

/** The tool-name shape every shipped provider accepts (OpenAI's function-name rule is the tightest). */
export const TOOL_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/** A tool that cannot be registered for a reason other than policy (bad or duplicate name). */
export class ToolRegistrationError extends Error {
  /** The class name, kept through minification. */
  override name = "ToolRegistrationError";
}

/** Options for a new registry. */
export interface ToolRegistryOptions {
  /** The gate; defaults to `Policy.locked()` so a registry is safe unless asked otherwise. */
  readonly policy?: Policy;
}

/** Named tools, gated at registration, listed in a byte-stable order. */
export class ToolRegistry {
  /** The policy every registration passes through. */
  readonly policy: Policy;
  readonly #tools = new Map<string, Tool>();

  /** An empty registry under `options.policy` (locked by default). */
  constructor(options: ToolRegistryOptions = {}) {
    this.policy = options.policy ?? Policy.locked();
  }

  /**
   * Adds `tool`. Throws `ToolRegistrationError` for an empty, malformed or duplicate name and
   * `PolicyError` when the policy refuses it. Returns the registry for chaining.
   */
  register(tool: Tool): this {
    const name = tool.name;
    if (typeof name !== "string" || name.length === 0) {
      throw new ToolRegistrationError("A tool needs a non-empty name.");
    }
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new ToolRegistrationError(
        `Tool name '${name}' is not accepted by model providers: use 1–64 characters from ` +
          "a-z, A-Z, 0-9, '_' and '-'.",
      );
    }
    if (this.#tools.has(name)) {
      throw new ToolRegistrationError(`A tool named '${name}' is already registered.`);
    }
    const refusal = this.policy.refusal(tool);
    if (refusal) throw new PolicyError(name, refusal);
    this.#tools.set(name, tool);
    return this;
  }

  /** The tool called `name`, or `undefined`. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Whether a tool called `name` is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#tools.size;
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.#tools.keys()].sort(compareNames);
  }

  /**
   * The wire declarations, sorted by name: the tools are the first bytes of every request, so
   * a stable order keeps the provider's prompt cache warm
   * (docs/invariants.md#6-stable-first-volatile-last).
   */
  specs(): ToolSpec[] {
    return this.names().map((name) => this.#tools.get(name)!.spec());
  }
}

/** Code-unit order, not locale order: the same bytes on every box whatever its locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
