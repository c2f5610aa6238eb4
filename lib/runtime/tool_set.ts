/**
 * The wake's tool set, built from the resolution (`activeTools`, docs/tools.md#the-shipped-stems): each
 * resolved vocabulary name maps to one constructor here, platform tools bound to this wake's
 * context, then the memory provider's own tool instances. The registry re-applies the policy on
 * registration, so a tool resolution let through by mistake still cannot load (docs/security.md#the-policy).
 */
import type { LoadRefusing, Policy } from "../core/policy.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { ToolRegistry } from "../core/registry.ts";
import { type Capability, type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import type { ActiveTool } from "../config/tool_resolution.ts";
import type { TurnHook } from "../core/turn_hook.ts";
import { promptsInstalled } from "../config/prompts.ts";
import { AssetsTool } from "../tools/assets.ts";
import type { ImageStash } from "../tools/shared/image_stash.ts";
import { DeleteTool } from "../tools/delete.ts";
import { LockTool } from "../tools/lock.ts";
import { MessagesTool } from "../tools/messages.ts";
import type { PlatformContext } from "../tools/shared/platform_context.ts";
import { SystemPromptEditTool, SystemPromptReadTool } from "../tools/system_prompt.ts";
import { TasksTool } from "../tools/tasks.ts";
import { TimelinesTool } from "../tools/timelines.ts";
import { TrustTool } from "../tools/trust.ts";
import { UsersTool } from "../tools/users.ts";
import { WebFetchTool } from "../tools/web_fetch.ts";
import { WebhookEndpointsTool } from "../tools/webhook_endpoints.ts";
import { WebhookEventsTool } from "../tools/webhook_events.ts";
import {
  type HandoffDesk,
  type NoteBook,
  NoteDeleteTool,
  NoteGetTool,
  NoteWriteTool,
  SummarizeTool,
} from "../tools/working_state.ts";

/** What a tool constructor may be bound to. */
export interface ToolBindings {
  /** This wake's platform context. */
  readonly context: PlatformContext;
  /** The config home (the self-authorship tools edit its `prompts/system-prompt.md`). */
  readonly configHome: string;
  /** This wake's image stash (MCP image results), for the assets tool's `post_image`. */
  readonly images?: ImageStash;
}

/** Builds one vocabulary tool. */
export type ToolFactory = (bindings: ToolBindings) => Tool;

/**
 * ToolVocabulary name → constructor: every name `RUNTIME_VOCABULARY` marks implemented. Plugin
 * `options` are not passed on: the constructors' options are test seams and limits, and a
 * config file must not be able to reach them (a name missing here fails loud at build time).
 */
export const TOOL_FACTORIES: Readonly<Record<string, ToolFactory>> = {
  messages: ({ context }) => new MessagesTool(context),
  assets: ({ context, images }) => new AssetsTool(context, { images }),
  tasks: ({ context }) => new TasksTool(context),
  timelines: ({ context }) => new TimelinesTool(context),
  trust: ({ context }) => new TrustTool(context),
  users: ({ context }) => new UsersTool(context),
  lock: ({ context }) => new LockTool(context),
  delete: ({ context }) => new DeleteTool(context),
  webhook_endpoints: ({ context }) => new WebhookEndpointsTool(context),
  webhook_events: ({ context }) => new WebhookEventsTool(context),
  web_fetch: () => new WebFetchTool(),
  system_prompt_read: ({ configHome }) =>
    new SystemPromptReadTool(configHome, { installed: promptsInstalled }),
  system_prompt_edit: ({ configHome }) =>
    new SystemPromptEditTool(configHome, { installed: promptsInstalled }),
};

/** The OpenAI media tools, by vocabulary name (their module loads only when one resolves). */
const OPENAI_MEDIA = ["generate_image", "edit_image", "listen"] as const;
/** The xAI media tools, likewise. */
const XAI_MEDIA = ["grok_generate_image", "grok_edit_image", "grok_generate_video"] as const;

/**
 * Constructors loaded only when the resolution activated them: the shell tool is opt-in, runs
 * only unlocked, and its modules would otherwise load on every engaged turn; the media tools are
 * opt-in and paid, and an engaged turn without them must not load their code; the direct-message
 * and xAI balance tools are opt-in likewise. The media, direct-message and balance tools read where to send requests from
 * `env` (the process environment unless given), the same variables the resolution checked their
 * `requires` against.
 */
export async function loadOptionalFactories(
  active: readonly ActiveTool[],
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Promise<Readonly<Record<string, ToolFactory>>> {
  const wanted = new Set(active.map((entry) => entry.tool));
  const factories: Record<string, ToolFactory> = {};
  if (wanted.has("shell")) {
    const { ShellTool } = await lazyImport<typeof import("../tools/shell/tool.ts")>(
      "lib/tools/shell/tool.ts",
    );
    factories.shell = () => new ShellTool();
  }
  if (OPENAI_MEDIA.some((name) => wanted.has(name))) {
    const media = await lazyImport<typeof import("../tools/media/openai_media.ts")>(
      "lib/tools/media/openai_media.ts",
    );
    const endpoint = media.mediaEndpointFrom(env);
    factories.generate_image = ({ context }) => new media.GenerateImageTool(endpoint, context);
    factories.edit_image = ({ context }) => new media.EditImageTool(endpoint, context);
    factories.listen = ({ context }) => new media.ListenTool(endpoint, context);
  }
  if (XAI_MEDIA.some((name) => wanted.has(name))) {
    const media = await lazyImport<typeof import("../tools/media/xai_media.ts")>(
      "lib/tools/media/xai_media.ts",
    );
    const endpoint = media.mediaEndpointFrom(env);
    factories.grok_generate_image = ({ context }) =>
      new media.GrokGenerateImageTool(endpoint, context);
    factories.grok_edit_image = ({ context }) => new media.GrokEditImageTool(endpoint, context);
    factories.grok_generate_video = ({ context }) =>
      new media.GrokGenerateVideoTool(endpoint, context);
  }
  if (wanted.has("send_direct_message_to_origin")) {
    const dm = await lazyImport<typeof import("../tools/direct_message.ts")>(
      "lib/tools/direct_message.ts",
    );
    const endpoint = dm.directMessageEndpointFrom(env);
    factories.send_direct_message_to_origin = ({ context }) =>
      new dm.DirectMessageTool(endpoint, context);
  }
  if (wanted.has("code_attach")) {
    // Without the code bridge (see loadCodeExecution) the tool answers that code execution is off.
    const code = await lazyImport<typeof import("../tools/code/mod.ts")>("lib/tools/code/mod.ts");
    factories.code_attach = ({ context }) => new code.CodeAttachTool(undefined, context);
  }
  if (wanted.has("xai_account_balance")) {
    const balance = await lazyImport<typeof import("../tools/xai_balance.ts")>(
      "lib/tools/xai_balance.ts",
    );
    const endpoint = balance.xaiManagementEndpointFrom(env);
    factories.xai_account_balance = () => new balance.XaiBalanceTool(endpoint);
  }
  return factories;
}

/** Where the model is reached, as the code bridge needs to know it. */
export interface CodeExecutionTarget {
  /** `AI_PROVIDER`. */
  readonly provider: string;
  /** `AI_SDK`. */
  readonly sdk: string;
  /** `AI_SDK_SURFACE`. */
  readonly surface: string;
  /** `AI_API_KEY`. */
  readonly apiKey: string;
  /** `AI_BASE_URL`. */
  readonly baseURL?: string;
  /** The active built-ins by manifest name. */
  readonly builtins?: readonly string[];
}

/** A wake's code bridge (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): its container, hook and attach tool. */
export interface CodeExecution {
  /** The container the next request names (undefined ⇒ `{type: "auto"}`). */
  readonly container: () => string | undefined;
  /** The engine hook that bridges each code run, over the wake's platform context. */
  readonly hook: (bindings: ToolBindings) => TurnHook;
  /** `code_attach`, bound to the same container. */
  readonly factories: Readonly<Record<string, ToolFactory>>;
}

/**
 * The code bridge, loaded only when `code_execution` is active on OpenAI's Responses surface
 * over the openai SDK — the one cell with a container file API. Elsewhere (xAI: compute only)
 * undefined, and nothing is loaded.
 */
export async function loadCodeExecution(
  target: CodeExecutionTarget,
): Promise<CodeExecution | undefined> {
  const applies = target.provider === "openai" && target.sdk === "openai" &&
    target.surface === "responses" && (target.builtins ?? []).includes("code_execution");
  if (!applies) return undefined;
  const code = await lazyImport<typeof import("../tools/code/mod.ts")>("lib/tools/code/mod.ts");
  const container = new code.CodeContainer({ apiKey: target.apiKey, baseURL: target.baseURL });
  return {
    container: () => container.container,
    hook: ({ context }) => code.codeBridgeHook(container, context),
    factories: {
      code_attach: ({ context }) => new code.CodeAttachTool(container, context),
    },
  };
}

/**
 * The working-state tools (docs/tools.md#working-state-notes-and-summarize): `note_write`,
 * `note_delete` and `note_get` over `book`, and `summarize` filing with `desk` when one is given.
 * They are the harness's own, not a plugin stem's, so every wake has them.
 */
export function workingStateTools(book: NoteBook, desk?: HandoffDesk): Tool[] {
  const tools: Tool[] = [new NoteWriteTool(book), new NoteDeleteTool(book), new NoteGetTool(book)];
  if (desk) tools.push(new SummarizeTool(desk));
  return tools;
}

/** A vocabulary tool the runtime marks implemented but this wake cannot build. */
export class ToolFactoryError extends Error {
  override name = "ToolFactoryError";
}

/**
 * The tools for `active` (in resolution order): vocabulary tools built and bound, memory tools
 * (`tool: null`) taken from `memoryTools` by name.
 * @throws {ToolFactoryError} when a resolved vocabulary name has no constructor here.
 */
export function buildTools(
  active: readonly ActiveTool[],
  bindings: ToolBindings,
  memoryTools: readonly Tool[],
  optional: Readonly<Record<string, ToolFactory>> = {},
): Tool[] {
  const memory = new Map(memoryTools.map((tool) => [tool.name, tool]));
  const tools: Tool[] = [];
  for (const entry of active) {
    if (entry.tool === null) {
      const tool = memory.get(entry.name);
      if (tool) tools.push(tool);
      continue;
    }
    const factory = optional[entry.tool] ?? TOOL_FACTORIES[entry.tool];
    if (!factory) {
      throw new ToolFactoryError(
        `Tool '${entry.tool}' resolved as implemented but this runtime has no constructor for ` +
          "it (a packaging bug): mark it not implemented in the vocabulary or add its factory.",
      );
    }
    const tool = factory(bindings);
    // A plugin `name` renames the tool for the model (docs/configuration.md#tool-plugin-files, the `name` override).
    tools.push(entry.name === tool.name ? tool : new RenamedTool(tool, entry.name));
  }
  return tools;
}

/**
 * `inner` answering to a plugin's chosen name. A delegating wrapper, not a copy: the tool's
 * private state stays on the instance its methods were written for.
 */
class RenamedTool extends Tool implements LoadRefusing {
  override readonly parameters: JsonSchema;
  override readonly requires: ReadonlySet<Capability>;
  readonly description: string;
  constructor(readonly inner: Tool, readonly name: string) {
    super();
    this.description = inner.description;
    this.parameters = inner.parameters;
    this.requires = inner.requires;
  }
  run(args: unknown, context?: ToolContext): ReturnType<Tool["run"]> {
    return this.inner.run(args, context);
  }
  loadRefusal(): string | undefined {
    const own = (this.inner as Partial<LoadRefusing>).loadRefusal;
    return typeof own === "function" ? own.call(this.inner) : undefined;
  }
}

/** A registry holding the resolved tools under `policy`. */
export function wakeRegistry(
  active: readonly ActiveTool[],
  bindings: ToolBindings,
  memoryTools: readonly Tool[],
  policy: Policy,
  optional: Readonly<Record<string, ToolFactory>> = {},
): ToolRegistry {
  const registry = new ToolRegistry({ policy });
  for (const tool of buildTools(active, bindings, memoryTools, optional)) registry.register(tool);
  return registry;
}
