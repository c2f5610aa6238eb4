/**
 * Usage, cost and endpoint extraction (docs/models.md#usage-cost-and-the-context-ceiling), plus the
 * context-limit helpers both adapters share. Field names are tried in order and the first integer
 * wins; the camelCase aliases exist because the openrouter SDK renames every field it parses.
 */
import { errorMessage } from "../base/error_text.ts";
import { isRecord } from "../base/json_object.ts";
import type { Message, Usage } from "../core/types/message.ts";

/** The context ceiling used when the provider does not state one. */
export const CONTEXT_FLOOR = 128_000;

/** Where `contextLimit()` got its answer; `floor` carries the reason. */
export type ContextLimitSource =
  | { readonly kind: "reported"; readonly via: string }
  | { readonly kind: "floor"; readonly reason: string };

/**
 * One context-limit lookup and where its answer came from: the lookup's number, `reported`
 * via `via`; otherwise the floor, because it stated none (`noneReason`) or `${via} failed`.
 */
export async function contextLimitFrom(
  via: string,
  noneReason: string,
  lookup: () => Promise<number | undefined>,
): Promise<{ limit: number; source: ContextLimitSource }> {
  try {
    const limit = await lookup();
    return limit === undefined
      ? { limit: CONTEXT_FLOOR, source: { kind: "floor", reason: noneReason } }
      : { limit, source: { kind: "reported", via } };
  } catch (error) {
    const reason = errorMessage(error);
    return { limit: CONTEXT_FLOOR, source: { kind: "floor", reason: `${via} failed: ${reason}` } };
  }
}

/** A non-negative integer, and never a boolean (JSON `true` is not a token count). */
function asInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Reads `path` (dot-separated) from `source`. */
function at(source: unknown, path: string): unknown {
  let node: unknown = source;
  for (const key of path.split(".")) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

function firstInt(source: unknown, paths: readonly string[]): number | undefined {
  for (const path of paths) {
    const value = asInt(at(source, path));
    if (value !== undefined) return value;
  }
  return undefined;
}

const TOKENS_IN = ["input_tokens", "prompt_tokens", "inputTokens", "promptTokens"];
const TOKENS_OUT = ["output_tokens", "completion_tokens", "outputTokens", "completionTokens"];
const TOKENS_TOTAL = ["total_tokens", "totalTokens"];
const CACHED = [
  "prompt_tokens_details.cached_tokens",
  "input_tokens_details.cached_tokens",
  "cached_prompt_text_tokens",
  "promptTokensDetails.cachedTokens",
  "inputTokensDetails.cachedTokens",
];

/**
 * The endpoint that served an OpenRouter call: the `available[]` entry with `selected` truthy
 * in the routing metadata, by its `provider` name. Never the response's top-level `provider`,
 * which names the routing family rather than the upstream.
 */
export function selectedEndpoint(response: unknown): string | undefined {
  const meta = at(response, "openrouter_metadata") ?? at(response, "openrouterMetadata");
  const available = at(meta, "endpoints.available");
  if (!Array.isArray(available)) return undefined;
  for (const entry of available) {
    if (isRecord(entry) && entry.selected && typeof entry.provider === "string") {
      return entry.provider;
    }
  }
  return undefined;
}

/**
 * Usage of one response object (the whole SDK response, which holds `usage` and, on
 * OpenRouter, the routing metadata). Undefined when nothing was reported.
 */
export function extractUsage(response: unknown): Usage | undefined {
  const usage = at(response, "usage");
  const out: {
    tokensIn?: number;
    tokensOut?: number;
    tokensTotal?: number;
    cachedTokens?: number;
    cost?: number;
    endpoint?: string;
  } = {};
  if (isRecord(usage)) {
    out.tokensIn = firstInt(usage, TOKENS_IN);
    out.tokensOut = firstInt(usage, TOKENS_OUT);
    out.tokensTotal = firstInt(usage, TOKENS_TOTAL);
    out.cachedTokens = firstInt(usage, CACHED);
    if (typeof usage.cost === "number" && Number.isFinite(usage.cost)) out.cost = usage.cost;
  }
  out.endpoint = selectedEndpoint(response);
  const entries = Object.entries(out).filter(([, value]) => value !== undefined);
  return entries.length ? Object.fromEntries(entries) as Usage : undefined;
}

/** Sets the usage of `response` (when it reported any) on `message`, and returns it. */
export function attachUsage(message: Message, response: unknown): Usage | undefined {
  const usage = extractUsage(response);
  if (usage) message.usage = usage;
  return usage;
}

/**
 * The first positive integer among the fields a models listing may use for the context
 * window (OpenAI itself states none; OpenAI-compatible servers often do).
 */
export function contextFromModel(model: unknown): number | undefined {
  for (const key of ["context_length", "context_window", "max_context_length"]) {
    const value = asInt(at(model, key));
    if (value !== undefined && value > 0) return value;
  }
  return undefined;
}

/** One endpoint of an OpenRouter model listing, as far as routing cares. */
export interface RoutableEndpoint {
  readonly contextLength?: number | null;
  readonly maxPromptTokens?: number | null;
  readonly status?: number;
  readonly tag?: string;
}

/** The `provider` routing preferences of model_params.json that narrow the endpoint set. */
export interface ProviderRouting {
  readonly only?: readonly string[];
  readonly ignore?: readonly string[];
  readonly order?: readonly string[];
  readonly allowFallbacks?: boolean;
}

/** Reads the routing object from model params in either key case; unknown shapes ⇒ none. */
export function routingFrom(params: Record<string, unknown> | undefined): ProviderRouting {
  const provider = params?.provider;
  if (!isRecord(provider)) return {};
  const list = (value: unknown) =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
  const fallbacks = provider.allow_fallbacks ?? provider.allowFallbacks;
  return {
    only: list(provider.only),
    ignore: list(provider.ignore),
    order: list(provider.order),
    allowFallbacks: typeof fallbacks === "boolean" ? fallbacks : undefined,
  };
}

/** The provider part of an endpoint tag (`deepinfra/fp8` ⇒ `deepinfra`), case-folded. */
function tagPrefix(tag: string | undefined): string {
  return (tag ?? "").split("/")[0].toLowerCase();
}

/**
 * The context ceiling over the endpoints OpenRouter may route to: the max over routable
 * endpoints of min(context_length, max_prompt_tokens). Endpoints with a negative status are
 * down; `only`/`ignore` restrict by tag prefix; `order` restricts only when fallbacks are off.
 */
export function contextFromEndpoints(
  endpoints: readonly RoutableEndpoint[],
  routing: ProviderRouting = {},
): number | undefined {
  const fold = (names: readonly string[] | undefined) =>
    names ? new Set(names.map((n) => n.toLowerCase())) : undefined;
  const only = fold(routing.only);
  const ignore = fold(routing.ignore);
  const order = routing.allowFallbacks === false ? fold(routing.order) : undefined;
  let best: number | undefined;
  for (const endpoint of endpoints) {
    if (typeof endpoint.status === "number" && endpoint.status < 0) continue;
    const prefix = tagPrefix(endpoint.tag);
    if (only && !only.has(prefix)) continue;
    if (ignore?.has(prefix)) continue;
    if (order && !order.has(prefix)) continue;
    const limits = [endpoint.contextLength, endpoint.maxPromptTokens]
      .map(asInt)
      .filter((v): v is number => v !== undefined && v > 0);
    if (!limits.length) continue;
    const limit = Math.min(...limits);
    best = best === undefined ? limit : Math.max(best, limit);
  }
  return best;
}
