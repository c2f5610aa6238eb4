/**
 * What a `TimelineAgent` is built from. Its own module, so the agent and the environment
 * reader that fills it (`from_env.ts`) both import it without importing each other.
 */
import type { Policy } from "../core/policy.ts";
import type { Provider } from "../core/types/provider.ts";
import type { Tool } from "../core/types/tool.ts";
import type { ImagePrepPolicy } from "../core/types/image_policy.ts";
import type { OutboundGate } from "../gate/post_request.ts";
import type { Journal } from "../journal/journal.ts";
import type { MemoryProvider } from "../memory/provider.ts";
import type { PlatformClient } from "../platform/mod.ts";
import type { PlatformContext } from "../tools/shared/platform_context.ts";
import type { ContextWindow } from "./backlog.ts";

/** Everything a TimelineAgent is built from; `TimelineAgent.fromEnv` fills it from the env. */
export interface TimelineAgentOptions {
  /** The authenticated platform client. */
  readonly client: PlatformClient;
  /** The timeline to watch. */
  readonly timeline: string;
  /** The model. */
  readonly provider: Provider;
  /**
   * The agent's tools, built once its identity is known, bound to `context` (whose gate is the
   * only way out). Default: the `messages` tool alone — without it the agent cannot speak.
   */
  readonly tools?: (context: PlatformContext) => Iterable<Tool>;
  /** The policy every tool passes (default: locked). */
  readonly policy?: Policy;
  /** The operator's charter (standing instructions). */
  readonly charter?: string;
  /**
   * The config home's knowledge pack (docs/context.md#the-knowledge-pack), rendered after the
   * charter exactly as a wake renders it; none when absent.
   */
  readonly knowledge?: {
    /** The rendered pack; `""` when there is none. */
    readonly text: string;
    /** sha256 hex of `text` in UTF-8: a turn record's `knowledge_sha256`. */
    readonly sha256: string;
  };
  /** Prefix the dashboard orientation to the charter (`HARNESS_ONBOARD`, default on). */
  readonly onboard?: boolean;
  /** Backlog messages to seed as context (`HARNESS_CONTEXT_MESSAGES`, default 50). */
  readonly contextMessages?: ContextWindow;
  /** The outbound gate (default: a {@link Gate} with the default guardrails). */
  readonly gate?: OutboundGate;
  /** Where lines go (default: silent). */
  readonly journal?: Journal;
  /** Per-turn step budget (default 24). */
  readonly maxSteps?: number;
  /** Extra attempts for transient provider faults (default 2). */
  readonly responseRetries?: number;
  /** How a request's images are prepared (`image_prep.json`); `null` sends them untouched. */
  readonly imagePrep?: ImagePrepPolicy | null;
  /** A memory provider whose tools are in `tools`; `close()` closes it. Its hooks never run. */
  readonly memory?: MemoryProvider;
}
