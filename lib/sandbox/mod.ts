/**
 * The sandbox platform: a local, offline BaseCradle-compatible server for tests, demos and
 * newcomers. Start one with {@link Sandbox.start}; drive its admin surface at `/_sandbox`.
 *
 * @module
 */
export { type PendingRequest, type RequestRecord, Sandbox, type SandboxOptions } from "./server.ts";
export { AgentQueues } from "./agent_queues.ts";
export {
  ACTIONABLE_EVENTS,
  type RouterObserver,
  type WakeAttempt,
  type WakeDirectory,
  type WakeOutcome,
  type WakeRecord,
  WakeRouter,
  type WakeRouterOptions,
  type WakeViewer,
} from "./router.ts";
export type {
  CommandLauncherOptions,
  LaunchResult,
  WakeLaunch,
  WakeLauncher,
} from "./router_launch.ts";
export { FLEET_RATE_CAPS, FLEET_RULES, type RateCaps, type RouterRules } from "./router_rules.ts";
export { type DeliveryRecord, signatureOf } from "./integration_deliveries.ts";
export type { DeliveryResource, PlatformDelivery } from "./shared/deliveries.ts";
export type { Integration } from "./shared/integrations.ts";
export type { CreatedUser, NewUser } from "./routes/admin.ts";
export type { EventName, SandboxEvent } from "./shared/events.ts";
export type { Fault, FaultSpec } from "./shared/faults.ts";
export type { SandboxLimits } from "./shared/state.ts";
export { type FieldErrors, Problem } from "./shared/problem.ts";
export type { Actor } from "./shared/shapes.ts";
export { AdminUserCreate } from "./shared/schemas.ts";
export { ADMIN_TOKEN_HEADER } from "./shared/admin_token.ts";
export { BodyTooLargeError, limitBody } from "./shared/body_limit.ts";
export {
  crossSiteRefusal,
  hostRefusal,
  type ServedHosts,
  servedHosts,
} from "./shared/local_origin.ts";
export { servedInline, userContentHeaders } from "./shared/user_content.ts";
export { isUuid, uuid7, Uuid7Generator } from "./shared/uuid7.ts";
