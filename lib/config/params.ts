/**
 * The operator-owned call-tuning files of the config home
 * (docs/configuration.md#model_paramsjson-and-search_paramsjson): `model_params.json` (keyword
 * arguments spread into every model call) and `search_params.json` (the OpenRouter `web_search`
 * server tool's parameters). Absent is simply off; present but unreadable, not JSON, or not an
 * object refuses to load with a sentence naming the file — a box must never run silently untuned.
 * The installer never writes either file.
 */
import { errorMessage } from "../base/error_text.ts";
import { parsePythonJson } from "../pycompat/json.ts";
import { join } from "../base/paths.ts";
import { readBytes } from "../base/read_files.ts";
import type { Journal } from "../journal/journal.ts";
import {
  ANTHROPIC_OWNED_KEYS,
  anthropicParamProblem,
  isOpenRouterChatKey,
  OPENAI_OWNED_KEYS,
  OPENROUTER_DROPPED_KEYS,
  OPENROUTER_OWNED_KEYS,
  stripOwned,
  XAI_SDK_PROFILE_OWNED_KEYS,
} from "../providers/params.ts";
import { ConfigError } from "./errors.ts";

/** `model_params.json`, relative to the config home. */
export const MODEL_PARAMS_FILE = "model_params.json";
/** `search_params.json`, relative to the config home. */
export const SEARCH_PARAMS_FILE = "search_params.json";

/** A JSON object read from a params file. */
export type Params = Record<string, unknown>;

/** `model_params.json` read and split for one SDK. */
export interface ModelParams {
  /** The file verbatim (`{}` when absent): what `--resolved-config` reports. */
  readonly raw: Params;
  /** What reaches the model call: owned keys (and unsupported `extra_body`) removed. */
  readonly params: Params;
  /** Sorted keys dropped (`model_params_stripped`). */
  readonly stripped: readonly string[];
  /** One WARNING line per dropped key. */
  readonly warnings: readonly string[];
}

/** How {@link loadModelParams} strips. */
export interface ModelParamsOptions {
  /**
   * `AI_SDK` as configured (`openai`, `openrouter`, `anthropic`, or `xai-sdk`, which runs on openai
   * but also drops the keys the Python xai-sdk adapter owned); decides the owned keys. Default
   * `openai`.
   */
  readonly sdk?: string;
  /** Where the WARNING lines go (they are returned either way). */
  readonly journal?: Journal;
  /** The file the params came from, for refusals (default `model_params.json`). */
  readonly file?: string;
}

/**
 * Reads `model_params.json` from `configHome` and strips the keys the harness owns on `sdk`.
 * @throws {ConfigError} naming the file when it is unreadable, not JSON, or not an object, and
 * on `AI_SDK=openrouter` naming the key that `chat.send` does not accept.
 */
export async function loadModelParams(
  configHome: string,
  options: ModelParamsOptions = {},
): Promise<ModelParams> {
  const file = join(configHome, MODEL_PARAMS_FILE);
  const raw = await readParamsFile(
    file,
    "keyword arguments for every model call",
    '{"temperature": 0.7}',
  );
  return splitModelParams(raw, { file, ...options });
}

/**
 * Splits an already-read params object for `sdk` (pure apart from the journal).
 * @throws {ConfigError} on `AI_SDK=openrouter`, for a key `chat.send` does not accept: its
 * schemas would drop it without a word, so the setting would be inert; on `AI_SDK=anthropic`,
 * for a key `messages.create` does not accept (the API would refuse every call). Refused here, at
 * resolution, so `harness resolved-config` and every wake refuse it alike, before any call.
 */
export function splitModelParams(raw: Params, options: ModelParamsOptions = {}): ModelParams {
  const sdk = (options.sdk ?? "openai").trim().toLowerCase() || "openai";
  const owned = sdk === "openrouter"
    ? OPENROUTER_OWNED_KEYS
    : sdk === "xai-sdk"
    ? XAI_SDK_PROFILE_OWNED_KEYS
    : sdk === "anthropic"
    ? ANTHROPIC_OWNED_KEYS
    : OPENAI_OWNED_KEYS;
  const { kept, stripped } = stripOwned(raw, owned);
  const warnings = stripped.map((key) =>
    key === "model"
      ? `model_params.json sets 'model', which it cannot: the model id is AI_MODEL. The key is ` +
        "ignored."
      : `model_params.json key '${key}' is set by the harness itself on the ${sdk} SDK and is ` +
        "ignored."
  );
  const dropped = [...stripped];
  // The native openrouter SDK's chat.send is a closed set: there is no extra_body escape hatch.
  if (sdk === "openrouter" && "extra_body" in kept) {
    delete kept.extra_body;
    dropped.push("extra_body");
    warnings.push(
      "model_params.json 'extra_body' is dropped: the openrouter SDK has no such escape hatch. " +
        "Pass top-level keys chat.send accepts, or use AI_SDK=openai for extra_body.",
    );
  }
  if (sdk === "openrouter") {
    const unknown = Object.keys(kept).filter((key) =>
      !OPENROUTER_DROPPED_KEYS.has(key) && !isOpenRouterChatKey(key)
    );
    if (unknown.length) {
      const file = options.file ?? MODEL_PARAMS_FILE;
      throw new ConfigError({
        variable: file,
        message: `${file} key '${unknown[0]}' is not a parameter the openrouter SDK's chat.send ` +
          "accepts, so it would be dropped without effect. Fix: spell it as one of chat.send's " +
          "request keys in snake_case (max_tokens, temperature, top_p, provider, reasoning, …), " +
          "or remove it (AI_SDK=openai passes unknown keys through).",
      });
    }
  }
  if (sdk === "anthropic") {
    for (const key of Object.keys(kept)) {
      const problem = anthropicParamProblem(key);
      if (!problem) continue;
      const file = options.file ?? MODEL_PARAMS_FILE;
      throw new ConfigError({
        variable: file,
        message:
          `${file} key ${problem}. Fix: remove the key, or spell it as a Messages API request ` +
          "parameter (extra_body passes a body key through unchecked).",
      });
    }
  }
  for (const line of warnings) options.journal?.text("WARNING", line);
  return { raw, params: kept, stripped: dropped.sort(), warnings };
}

/**
 * Reads `search_params.json` from `configHome`, verbatim (`{}` when absent).
 * @throws {ConfigError} naming the file when it is unreadable, not JSON, or not an object.
 */
export function loadSearchParams(configHome: string): Promise<Params> {
  return readParamsFile(
    join(configHome, SEARCH_PARAMS_FILE),
    "the openrouter:web_search tool's parameters",
    '{"max_results": 5}',
  );
}

/** A params file's object; `{}` when the file does not exist. `example` shows a good one. */
async function readParamsFile(path: string, what: string, example: string): Promise<Params> {
  let text: string;
  try {
    const bytes = await readBytes(path);
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw refuse(
      path,
      `${path} could not be read: ${errorMessage(error)}. Fix: make it a readable UTF-8 file, ` +
        "or delete it to pass no parameters.",
      error,
    );
  }
  let value: unknown;
  try {
    // Python's number spellings are recorded (`1.0` stays `1.0` when reported back).
    value = parsePythonJson(text);
  } catch (error) {
    throw refuse(
      path,
      `${path} is not valid JSON: ${errorMessage(error)}. Fix: correct the syntax (JSON has no ` +
        "comments or trailing commas), or delete the file to pass no parameters.",
      error,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw refuse(
      path,
      `${path} must be a JSON object (${what}) but its top level is ${jsonType(value)}. Fix: ` +
        `write one object such as ${example}, or delete the file to pass no parameters.`,
    );
  }
  return value as Params;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function refuse(path: string, message: string, cause?: unknown): ConfigError {
  return new ConfigError({ variable: path, message }, cause === undefined ? undefined : { cause });
}
