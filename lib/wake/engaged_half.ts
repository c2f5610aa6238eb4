/**
 * The engaged half of the wake, as the idle half sees it: what a turn is about, how it ends, and
 * the functions the half exports. The half itself (lib/wake/engaged/) is loaded only by the first
 * engaged turn, through {@link engaged}, so a wake with nothing to answer never reads, parses or
 * runs any of it. The idle half names the half by this interface and never by its modules, which
 * keeps `lib/wake/engaged/` above `lib/wake/` in the layer order; tests/wake/engaged_half.test.ts
 * type-checks the loaded module against it.
 */
import { lazyImport } from "../base/lazy_import.ts";
import type { ActiveTool } from "../config/tool_resolution.ts";
import type { Engine, EngineResult } from "../core/engine.ts";
import type { Policy } from "../core/policy.ts";
import type { Message } from "../core/types/message.ts";
import type { ImagePrepPolicy } from "../core/types/image_policy.ts";
import type { Tool } from "../core/types/tool.ts";
import type { Journal } from "../journal/journal.ts";
import type { McpConfigRead, McpLoad } from "../mcp/mod.ts";
import type { BuildProviderOptions } from "../providers/factory.ts";
import type { ToolBindings } from "../runtime/tool_set.ts";
import type { NudgeReason } from "./nudge.ts";
import type { ReportedItem } from "./reports.ts";
import type { Wake } from "./wake_state.ts";

/** How a turn ended, for the item's disposition. */
export type TurnOutcome =
  /** The turn settled (spoken, silent, reserve or stuck): commit the item. */
  | "done"
  /** A permanent rejection was reported: commit the item, never re-drive it. */
  | "permanent"
  /** Out of funds: the item stays pending and the rest of the wake makes no model call. */
  | "billing"
  /**
   * The turn ended, but a create in it got no definite answer: the item stays pending and its
   * claim in flight, so the next wake's recovery re-sends the create under the same key.
   */
  | "unsettled";

/** What a turn is about. */
export interface TurnSpec {
  /** The user turn's text (or, on a resume, the resumed turn's content). */
  readonly text: string;
  /** The Idempotency-Key anchor. */
  readonly anchor: string | undefined;
  /** The item uuid(s) for report lines. */
  readonly itemLabel: string;
  /** What the report would call the item. */
  readonly report: ReportedItem;
  /** Whether this turn is armed for the no-reply nudge. */
  readonly nudge: NudgeReason | undefined;
  /** The text memory recall is keyed on (first engaged turn only). */
  readonly recallQuery: string;
}

/** A rebuilt turn: the enlarged batch's spec and user turn (same anchor). */
export interface RebuiltTurn {
  readonly spec: TurnSpec;
  readonly turn: Message;
}

/**
 * Loop 2 of pacing (docs/context.md#read-speed-pacing-aiai-conversations): asked after a build that ran no tool and was not compacted,
 * while builds remain. Re-reads; new peers ⇒ the enlarged turn to rebuild with, else undefined.
 */
export interface Rebuild {
  /** `HARNESS_PACE_MAX_BUILDS`: the Nth build stands unconditionally. */
  readonly maxBuilds: number;
  readonly check: () => Promise<RebuiltTurn | undefined>;
}

/** What the engine is built from: the provider's options, the resolved tools, the loop's knobs. */
export interface EngineParts {
  readonly provider: BuildProviderOptions;
  readonly active: readonly ActiveTool[];
  readonly bindings: ToolBindings;
  readonly memoryTools: readonly Tool[];
  readonly policy: Policy;
  readonly journal: Journal;
  readonly maxSteps: number;
  readonly responseRetries: number;
  /** How a request's images are prepared; `null` sends them untouched. */
  readonly imagePrep: ImagePrepPolicy | null;
  /** Tools beyond the resolution (the MCP proxies), registered after it under the same policy. */
  readonly extraTools?: readonly Tool[];
}

/** What the wake's MCP step needs. */
export interface WakeMcpOptions {
  readonly configHome: string;
  readonly timeoutSeconds: number;
  readonly journal: Journal;
  /** The config read made before the sandbox narrowed (`runtime.mcpRead`). */
  readonly configs: McpConfigRead;
  /** Inherited variables withheld from stdio servers (the harness's secrets). */
  readonly withheldEnv: readonly string[];
}

/** What lib/wake/engaged/mod.ts exports. */
export interface EngagedHalf {
  /**
   * Appends the user turn, persists it, and drives it to an outcome; with `rebuild`, a build
   * that ran no tool is re-checked and rebuilt when new peers arrived.
   */
  engage(wake: Wake, spec: TurnSpec, turn: Message, rebuild?: Rebuild): Promise<TurnOutcome>;
  /** Runs the engine over `live` from `turnStart` and turns the ending into an outcome. */
  drive(
    wake: Wake,
    spec: TurnSpec,
    live: Message[],
    turnStart: number,
    save: () => Promise<void>,
    standing?: (result: EngineResult) => Promise<boolean>,
  ): Promise<TurnOutcome>;
  /** The provider adapter, the wake's tool registry and the engine over both. */
  buildEngine(parts: EngineParts): Promise<Engine>;
  /** The MCP step: undefined when `mcp/` holds nothing at all. */
  loadWakeMcp(options: WakeMcpOptions): Promise<McpLoad | undefined>;
}

/** The engine, the tools, the provider and the brief; loaded by the first engaged turn. */
export function engaged(): Promise<EngagedHalf> {
  return lazyImport<EngagedHalf>("lib/wake/engaged/mod.ts");
}
