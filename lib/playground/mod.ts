/**
 * `harness playground` seats a human and an AI peer on the sandbox, runs `harness wake` for
 * every platform event the way a router would, and serves one page that shows the timelines,
 * each wake's journal, tool calls, tokens, cost and turn record live (docs/playground.md).
 *
 * @module
 */
export { type Playground, type PlaygroundOptions, startPlayground } from "./playground.ts";
export { hostRefusal, isLoopback, remoteWarning } from "./host.ts";
export type { WakeView } from "./wakes.ts";
