/**
 * The policy decides, at registration, which tools may load. It is the first of the two
 * "safe by default" locks (docs/invariants.md#7-safe-by-default-enforced-twice): the locked profile
 * refuses shell-class tools before they can ever reach a model; Deno's own permissions are the
 * second lock.
 */
import { type Capability, SHELL, type Tool } from "./types/tool.ts";

/** The two profiles an operator can select (`HARNESS_PROFILE`). */
export type Profile = "locked" | "unlocked";

/** A tool refused by the policy (a forbidden capability, or a tool that refuses this runtime). */
export class PolicyError extends Error {
  /** The class name, kept through minification. */
  override name = "PolicyError";
  /** The message is the audit sentence `Tool '<tool>' <reason>; not loaded.` */
  constructor(
    /** The refused tool's name. */
    readonly tool: string,
    /** Why, worded for the audit line (`refused by the safe-by-default policy: …`). */
    readonly reason: string,
  ) {
    super(`Tool '${tool}' ${reason}; not loaded.`);
  }
}

/**
 * A tool that can decline to load in the current runtime (the shell tool refuses to run as
 * root). Read by presence, so ordinary tools need not declare it.
 */
export interface LoadRefusing {
  /** A non-empty text when this tool must not load here; otherwise `undefined` or `""`. */
  loadRefusal(): string | undefined;
}

/** Which capabilities a profile forbids. Immutable; build one with `locked()` or `unlocked()`. */
export class Policy {
  private constructor(
    /** The profile's name, as `--resolved-config` reports it. */
    readonly profile: Profile,
    /** Capabilities no registered tool may require. */
    readonly forbidden: ReadonlySet<Capability>,
  ) {}

  /** The safe default: forbids the shell capability. */
  static locked(): Policy {
    return new Policy("locked", new Set([SHELL]));
  }

  /** Forbids nothing: the profile an operator selects deliberately to grant a shell. */
  static unlocked(): Policy {
    return new Policy("unlocked", new Set());
  }

  /**
   * Why `tool` may not load, or `undefined` when it may. The text completes the audit sentence
   * `Tool '<name>' <reason>; not loaded.` (docs/security.md#the-policy), so callers that drop a
   * tool quietly (config resolution) and the registry that throws word it the same way.
   */
  refusal(tool: Pick<Tool, "requires">): string | undefined {
    const denied = [...tool.requires].filter((c) => this.forbidden.has(c)).sort();
    if (denied.length) return `refused by the safe-by-default policy: needs ${denied.join(", ")}`;
    const own = isLoadRefusing(tool) ? tool.loadRefusal() : undefined;
    if (own) return `refuses to load in this runtime: ${own}`;
    return undefined;
  }

  /** Whether `tool` may load under this policy. */
  allows(tool: Pick<Tool, "requires">): boolean {
    return this.refusal(tool) === undefined;
  }
}

function isLoadRefusing(tool: object): tool is LoadRefusing {
  return typeof (tool as Partial<LoadRefusing>).loadRefusal === "function";
}
