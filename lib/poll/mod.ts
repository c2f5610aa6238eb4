/**
 * Poll mode: {@link TimelineAgent} keeps one agent on one timeline from a long-lived process —
 * the laptop counterpart of the router's `harness wake` (docs/poll.md). Kept apart from
 * `lib/mod.ts` so importing the core library stays light.
 *
 * ```ts
 * import { TimelineAgent } from "./lib/poll/mod.ts";
 * await using agent = await TimelineAgent.fromEnv();   // BASECRADLE_TIMELINE, AI_*, …
 * const posted = await agent.pollOnce();               // what the agent chose to post
 * ```
 *
 * @module
 */
export {
  DEFAULT_CONTEXT_MESSAGES,
  DEFAULT_INTERVAL_MS,
  type PollOptions,
  type PostedMessage,
  type RunOptions,
  TimelineAgent,
} from "./timeline_agent.ts";
export type { TimelineAgentOptions } from "./options.ts";
export { type FromEnvOptions, PollConfigError, pollOptionsFromEnv } from "./from_env.ts";
export { type ContextWindow, type Mark } from "./backlog.ts";
export { orientation, ORIENTATION_HEADING, withOrientation } from "./orientation.ts";
