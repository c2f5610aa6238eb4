/**
 * The wake's tool set: the `messages` tool (the agent's only voice), every platform tool bound to
 * this wake's context, and the memory provider's tools, registered under the operator's policy.
 */
import type { Policy } from "../core/policy.ts";
import { ToolRegistry } from "../core/registry.ts";
import type { Tool } from "../core/tool.ts";
import { memoryTools } from "../memory/hooks.ts";
import type { MemoryProvider } from "../memory/provider.ts";
import { AssetsTool } from "../tools/assets.ts";
import { DeleteTool } from "../tools/delete.ts";
import { LockTool } from "../tools/lock.ts";
import { MessagesTool } from "../tools/messages.ts";
import type { PlatformContext } from "../tools/platform_context.ts";
import { TasksTool } from "../tools/tasks.ts";
import { TimelinesTool } from "../tools/timelines.ts";
import { TrustTool } from "../tools/trust.ts";
import { UsersTool } from "../tools/users.ts";
import { WebhookEndpointsTool } from "../tools/webhook_endpoints.ts";
import { WebhookEventsTool } from "../tools/webhook_events.ts";

/** The platform tools, each bound to `context`. */
export function platformTools(context: PlatformContext): Tool[] {
  return [
    new MessagesTool(context),
    new AssetsTool(context),
    new TasksTool(context),
    new TimelinesTool(context),
    new TrustTool(context),
    new UsersTool(context),
    new LockTool(context),
    new DeleteTool(context),
    new WebhookEndpointsTool(context),
    new WebhookEventsTool(context),
  ];
}

/** A registry holding the platform tools and the memory tools under `policy`. */
export function wakeRegistry(
  context: PlatformContext,
  memory: MemoryProvider,
  policy: Policy,
): ToolRegistry {
  const registry = new ToolRegistry({ policy });
  for (const tool of [...platformTools(context), ...memoryTools(memory)]) registry.register(tool);
  return registry;
}
