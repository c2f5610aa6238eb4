/**
 * BaseCradle Harness for Deno — the library API.
 *
 * A `Harness` wires a model provider, a charter and tools together; `send` runs one turn
 * (think, call tools, think again) and keeps each source's conversation. A tool is one small
 * class (`Tool`), a provider is any object with `chat()` (`Provider`), and memory is a
 * `MemoryProvider`. Importing this module loads no model SDK: each adapter imports its SDK on
 * its first call.
 *
 * ```ts
 * import { EchoProvider, Harness } from "./lib/mod.ts";
 *
 * const agent = new Harness(new EchoProvider());
 * console.log(await agent.send("Hello!")); // -> You said: Hello!
 * ```
 *
 * @module
 */

// The agent core.
export { Harness } from "./core/harness.ts";
export type { Charter, HarnessOptions, SendOptions } from "./core/harness.ts";
export { Message } from "./core/types/message.ts";
export type {
  CodeRun,
  CodeRunFile,
  Ending,
  ImageContent,
  MessageFactories,
  Role,
  ToolCall,
  Usage,
} from "./core/types/message.ts";
export type { ImagePrepPolicy } from "./core/types/image_policy.ts";
export { SHELL, Tool } from "./core/types/tool.ts";
export type {
  Capability,
  JsonSchema,
  ToolContext,
  ToolOutcome,
  ToolOutput,
  ToolSpec,
  ToolVerdict,
} from "./core/types/tool.ts";
export { ToolRegistrationError, ToolRegistry } from "./core/registry.ts";
export type { ToolRegistryOptions } from "./core/registry.ts";
export { Policy, PolicyError } from "./core/policy.ts";
export type { LoadRefusing, Profile } from "./core/policy.ts";
export type { CacheMode, Provider } from "./core/types/provider.ts";
export { Engine, EngineError, nudgeOnce } from "./core/engine.ts";
export type {
  EngineOptions,
  EngineResult,
  RunOptions,
  StepContext,
  ToolCallRecord,
  TurnHook,
  UnspokenKind,
  UsageTotals,
} from "./core/engine.ts";
export type { ToolRun } from "./core/dispatch.ts";
export type { Sleep } from "./core/retry.ts";
export { InMemorySessionStore } from "./core/transcript/session_store.ts";
export type { SessionStore } from "./core/transcript/session_store.ts";
export { FileSessionStore } from "./core/transcript/session.ts";
export {
  ProviderAPIError,
  ProviderAuthError,
  ProviderBillingError,
  ProviderConnectionError,
  ProviderContextLengthError,
  ProviderError,
  ProviderPayloadTooLargeError,
  ProviderRateLimitError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderServerError,
} from "./core/types/faults.ts";

// Model providers (each loads its SDK lazily).
export {
  AnthropicProvider,
  EchoProvider,
  OpenAIProvider,
  OpenRouterProvider,
} from "./providers/mod.ts";
export type {
  AnthropicProviderOptions,
  ContextLimitSource,
  OpenAIProviderOptions,
  OpenAISurface,
  OpenRouterProviderOptions,
} from "./providers/mod.ts";
export { buildProvider, ProviderConfigError } from "./providers/mod.ts";
export type { BuildProviderOptions } from "./providers/mod.ts";

// Memory.
export {
  loadMemoryProvider,
  MemoryTool,
  SqliteMemoryProvider,
  SqliteMemoryStore,
} from "./memory/mod.ts";
export type {
  BoundMemoryProvider,
  LoadMemoryProviderOptions,
  MemoryEntry,
  MemoryExchange,
  MemoryHit,
  MemoryProvider,
  MemoryProviderContext,
  MemoryScope,
  MemoryStore,
} from "./memory/mod.ts";

// The journal (log lines in the fleet's grammar).
export { journalFromEnv, MemoryJournal, silentJournal, StreamJournal } from "./journal/mod.ts";
export type {
  EnvGetter,
  EventOptions,
  Fields,
  FieldValue,
  HeadColor,
  Journal,
  Level,
  LineSink,
  StreamJournalOptions,
} from "./journal/mod.ts";
