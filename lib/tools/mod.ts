/**
 * The built-in tools, for a library user assembling an agent by hand. The platform tools act on
 * BaseCradle once bound to a `PlatformContext` (a wake binds them for you); `messages` speaks
 * only through the outbound gate. Kept apart from `lib/mod.ts` so importing the core library
 * stays light: these tools validate their arguments with zod at import time.
 *
 * @module
 */

export type {
  CreateKind,
  PlatformContext,
  SelfIdentity,
  VisibleAct,
} from "./shared/platform_context.ts";
export type {
  ClearRequest,
  ClearSurface,
  OutboundGate,
  PostRequest,
} from "../gate/post_request.ts";
export type { ToneVerdict } from "../gate/tone.ts";
export type { AddressPolicy } from "../net/address_policy.ts";
export type { Resolver } from "../net/dns.ts";
export type { HttpRequest, HttpResponse, Transport } from "../net/pinned_transport.ts";
export type { ResponseHead } from "../net/http1.ts";
export type { IpAddress } from "../net/ip.ts";
export type { Target } from "../net/target.ts";
export type { TextArgValues } from "./shared/args.ts";
export { BASECRADLE, PlatformTool } from "./shared/platform_tool.ts";
export { type ConfirmArgs, ConfirmedTimelineAction } from "./confirmed_action.ts";
export type { Clock } from "./shared/activate_at.ts";
export type { PostKind } from "../journal/catalogue_wake.ts";
export { MessagesTool } from "./messages.ts";
export { AssetsTool } from "./assets.ts";
export type { AssetsArgs, AssetsContextExtras, AssetsToolOptions } from "./assets.ts";
export { TasksTool } from "./tasks.ts";
export type { TasksArgs, TasksToolOptions } from "./tasks.ts";
export { TimelinesTool } from "./timelines.ts";
export type { TimelinesArgs } from "./timelines.ts";
export { TrustTool } from "./trust.ts";
export type { TrustArgs } from "./trust.ts";
export { UsersTool } from "./users.ts";
export type { UsersArgs } from "./users.ts";
export { LockTool } from "./lock.ts";
export { DeleteTool } from "./delete.ts";
export { WebhookEndpointsTool } from "./webhook_endpoints.ts";
export type { EndpointArgs } from "./webhook_endpoints.ts";
export { WebhookEventsTool } from "./webhook_events.ts";
export type { EventArgs } from "./webhook_events.ts";
export { WebFetchTool } from "./web_fetch.ts";
export type { WebFetchOptions } from "./web_fetch.ts";
export { SystemPromptEditTool, SystemPromptReadTool, systemPromptTools } from "./system_prompt.ts";
export type { EditArgs, SystemPromptOptions } from "./system_prompt.ts";
export { ShellTool } from "./shell/tool.ts";
export type { ShellArgs, ShellToolOptions } from "./shell/tool.ts";
export { ImageRing } from "./shared/image_stash.ts";
export type { ImageStash, StashedImage } from "./shared/image_stash.ts";
export { SimpleContext } from "./shared/simple_context.ts";
export type { SimpleContextInit } from "./shared/simple_context.ts";
