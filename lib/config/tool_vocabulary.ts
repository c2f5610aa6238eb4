/**
 * The vocabulary a plugin file may name: every function tool and server-side built-in the
 * shipped stems (docs/tools.md#the-shipped-stems) refer to, with whether this runtime implements it
 * yet. A name outside the vocabulary makes a plugin file broken (a typo must fail loud); a name
 * inside it that is not implemented resolves to the skip reason "not available in this runtime", so
 * a Python-era stem carries over visibly instead of silently vanishing.
 */
import { type Capability, SHELL } from "../core/types/tool.ts";

/** What the runtime knows about one function tool. */
export interface VocabularyTool {
  /**
   * Capabilities the tool needs; the policy may refuse it for them (docs/security.md#the-policy).
   */
  readonly capabilities: readonly Capability[];
  /** Whether a tool class for it exists in this runtime. */
  readonly implemented: boolean;
}

/** The function tools and built-ins a plugin file may name. */
export interface ToolVocabulary {
  /** Function tools by model-facing name. */
  readonly tools: Readonly<Record<string, VocabularyTool>>;
  /** Server-side built-in wire names → whether this runtime's providers wire them. */
  readonly builtins: Readonly<Record<string, boolean>>;
}

const ported = (capabilities: readonly Capability[] = []): VocabularyTool => ({
  capabilities,
  implemented: true,
});

/**
 * This runtime's vocabulary. Flip `implemented` when a tool class lands in `lib/tools/` and the
 * wake's factory can build it; the resolver then activates it with no change to any plugin file.
 */
export const RUNTIME_VOCABULARY: ToolVocabulary = Object.freeze({
  tools: Object.freeze({
    assets: ported(),
    delete: ported(),
    lock: ported(),
    messages: ported(),
    tasks: ported(),
    timelines: ported(),
    trust: ported(),
    users: ported(),
    web_fetch: ported(),
    webhook_endpoints: ported(),
    webhook_events: ported(),
    code_attach: ported(),
    edit_image: ported(),
    generate_image: ported(),
    grok_edit_image: ported(),
    grok_generate_image: ported(),
    grok_generate_video: ported(),
    listen: ported(),
    send_direct_message_to_origin: ported(),
    shell: ported([SHELL]),
    system_prompt_edit: ported(),
    system_prompt_read: ported(),
    xai_account_balance: ported(),
  }),
  // The openai adapter wires web_search + code_interpreter (Responses) and xAI's web_search,
  // x_search and code_execution (Responses); the openrouter and anthropic adapters wire
  // web_search.
  builtins: Object.freeze({
    code_execution: true,
    code_interpreter: true,
    web_search: true,
    x_search: true,
  }),
});

/** The skip reason for a claimed plugin whose tool or built-in this runtime lacks. */
export function unavailableReason(kind: "tool" | "builtin", name: string): string {
  return kind === "tool"
    ? `not available in this runtime: the '${name}' tool has not been ported from the Python ` +
      "harness yet"
    : `not available in this runtime: the '${name}' built-in is not wired by this runtime's ` +
      "providers";
}
