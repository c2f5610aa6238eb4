/**
 * One plain model call for a judge (the gate's tone check, docs/security.md#the-tone-check): a
 * system text and a user text in, the reply's text out, no tools, over the same SDK, surface,
 * base URL and key the wake's model uses. The operator's model_params.json is not applied: it
 * tunes the agent's own model, and the judge may be another one; only the judge's output cap is
 * sent, under the name each wire gives it.
 */
import { Message } from "../core/types/message.ts";
import type { Provider } from "../core/types/provider.ts";
import { validateModelAxes } from "./axes.ts";
import { buildProvider, type BuildProviderOptions } from "./factory.ts";

/** What a judge asks: the same shape as the gate's `JudgeRequest`. */
export interface JudgeCallRequest {
  readonly system: string;
  readonly user: string;
  readonly model: string;
  readonly maxTokens?: number;
}

/** The wire's name for an output cap (`max_tokens` is camel-cased for openrouter by its adapter). */
export function maxTokensKey(options: Pick<BuildProviderOptions, "provider" | "sdk" | "surface">) {
  const { sdk, surface } = validateModelAxes(options);
  if (sdk === "openai") return surface === "chat" ? "max_completion_tokens" : "max_output_tokens";
  return "max_tokens";
}

/**
 * A judge's model call over `base` (the wake's provider options; its model, params and tools
 * are replaced). The provider for each (model, cap) is built once. Throws when the call fails,
 * or when the reply was refused, cut off or empty: none of those is a judgement.
 */
export function judgeCall(
  base: BuildProviderOptions,
): (request: JudgeCallRequest) => Promise<string> {
  const built = new Map<string, Provider>();
  const key = maxTokensKey(base);
  return async (request) => {
    const id = `${request.model}\u0000${request.maxTokens ?? ""}`;
    let provider = built.get(id);
    if (provider === undefined) {
      provider = buildProvider({
        provider: base.provider,
        sdk: base.sdk,
        surface: base.surface,
        model: request.model,
        apiKey: base.apiKey,
        baseURL: base.baseURL,
        timeoutMs: base.timeoutMs,
        params: request.maxTokens === undefined ? {} : { [key]: request.maxTokens },
      });
      built.set(id, provider);
    }
    const reply = await provider.chat([Message.system(request.system), Message.user(request.user)]);
    if (reply.ending === "refused") throw new Error("the judge model refused to answer");
    if (reply.ending === "truncated") {
      throw new Error(
        "the judge's reply was cut off by its output limit (raise tone.max_tokens in guardrails.json)",
      );
    }
    const text = reply.content ?? "";
    if (text.trim() === "") throw new Error("the judge model replied with no text");
    return text;
  };
}
