/**
 * The declarative tool-plugin file: `tools/<stem>.json` in the config home, one per stem. A
 * compiled binary cannot import code from disk (docs/configuration.md#tool-plugin-files), so a
 * plugin names what it enables — a tool class of this runtime (`tool`) or a server-side built-in
 * (`builtin`) — and when (`requires`), instead of being code. The file stem is the unit an operator
 * grants, revokes and the fleet inventory counts; one stem may enable several tools.
 *
 * ```json
 * {
 *   "format": 1,
 *   "about": "free text for the operator; never read by the runtime",
 *   "opt_in": true,
 *   "plugins": [
 *     { "builtin": "code_interpreter", "name": "code_execution",
 *       "requires": { "vendor": "openai", "surface": "responses" }, "note": "…" },
 *     { "tool": "code_attach", "requires": { "vendor": "openai" }, "options": {} }
 *   ]
 * }
 * ```
 */
import { errorMessage } from "../base/error_text.ts";
import { isRecord } from "../base/json_object.ts";
import * as z from "../base/zod.ts";
import { RUNTIME_VOCABULARY, type ToolVocabulary } from "./tool_vocabulary.ts";

/** The one plugin-file format this runtime reads. */
export const PLUGIN_FORMAT = 1;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ENV_VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
const oneLine = (what: string) =>
  z.string().min(1).refine((text) => !/[\r\n]/.test(text), `${what} must be one line`);

const RequiresSchema = z.strictObject({
  vendor: z.string().min(1).optional(),
  sdk: z.string().min(1).optional(),
  surface: z.string().min(1).optional(),
  openai_key: z.literal(true).optional(),
  env_set: z.array(z.string().regex(ENV_VAR, "must be an environment variable name")).optional(),
});

const PluginSchema = z.strictObject({
  tool: z.string().min(1).optional(),
  builtin: z.string().min(1).optional(),
  name: z.string().regex(NAME, "must be 1-64 letters, digits, '_' or '-'").optional(),
  requires: RequiresSchema.optional(),
  note: oneLine("note").optional(),
  options: z.record(z.string(), z.unknown()).optional(),
}).superRefine((plugin, ctx) => {
  if ((plugin.tool === undefined) === (plugin.builtin === undefined)) {
    ctx.addIssue({ code: "custom", message: "set exactly one of 'tool' or 'builtin'" });
  }
  if (plugin.builtin !== undefined && plugin.options !== undefined) {
    ctx.addIssue({ code: "custom", message: "'options' apply to a 'tool', not a 'builtin'" });
  }
});

const PluginFileSchema = z.strictObject({
  format: z.literal(PLUGIN_FORMAT),
  about: z.string().optional(),
  opt_in: z.boolean().optional(),
  plugins: z.array(PluginSchema).min(1, "must list at least one plugin"),
});

/**
 * Activation requirements: all must hold (docs/tools.md#the-shipped-stems). Checked in a fixed
 * order for stable reasons.
 */
export interface Requires {
  /** `AI_PROVIDER` must equal it. */
  readonly vendor?: string;
  /** `AI_SDK` must equal it. */
  readonly sdk?: string;
  /** The resolved OpenAI surface must equal it. */
  readonly surface?: string;
  /** `AI_API_KEY` non-empty and the provider `openai`. */
  readonly openai_key?: true;
  /** Each variable must be non-empty. */
  readonly env_set?: readonly string[];
}

/** One plugin of a file, with the stem and file it came from. */
export interface Plugin {
  /** A function tool of this runtime, by its vocabulary name. */
  readonly tool?: string;
  /** A server-side built-in, by wire name. */
  readonly builtin?: string;
  /** The model-facing name (overrides the tool's or built-in's own). */
  readonly name: string;
  /** Activation requirements. */
  readonly requires: Requires;
  /** One line for the brief's tool manifest. */
  readonly note: string | null;
  /** Passed to the tool's constructor by the wake. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The file's stem. */
  readonly stem: string;
  /** The file's name in `tools/`. */
  readonly file: string;
  /** Whether the file is a powerful (opt-in) stem. */
  readonly optIn: boolean;
}

/** A parsed plugin file. */
export interface PluginFile {
  /** The stem (`code_execution`). */
  readonly stem: string;
  /** The file name (`code_execution.json`). */
  readonly file: string;
  /** Powerful: off unless granted. */
  readonly optIn: boolean;
  /** Its plugins, in file order (the claiming order). */
  readonly plugins: readonly Plugin[];
}

/** The outcome of reading one plugin file. */
export type ParsedPluginFile =
  | { readonly ok: true; readonly value: PluginFile }
  | { readonly ok: false; readonly error: string };

/** The stem of a plugin file name: `x.json` and `x.py` ⇒ `x`; a tolerated `.py` on a stem too. */
export function stemOf(file: string): string {
  return file.replace(/\.(json|py)$/, "");
}

/**
 * Parses and validates a plugin file's text. Never throws: a broken file is an answer
 * (docs/configuration.md#tool-plugin-files), the error a one-line sentence naming what is wrong.
 */
export function parsePluginFile(
  file: string,
  text: string,
  vocabulary: ToolVocabulary = RUNTIME_VOCABULARY,
): ParsedPluginFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON: ${errorMessage(error)}` };
  }
  const parsed = PluginFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const at = issue.path.length ? issue.path.join(".") : "the file";
      return `${at}: ${issue.message}`;
    });
    return { ok: false, error: issues.join("; ") };
  }
  const stem = stemOf(file);
  const optIn = parsed.data.opt_in ?? false;
  const plugins: Plugin[] = [];
  for (const [index, entry] of parsed.data.plugins.entries()) {
    if (entry.tool !== undefined && !(entry.tool in vocabulary.tools)) {
      return {
        ok: false,
        error: `plugins.${index}.tool: unknown tool '${entry.tool}'; this runtime's tools are: ${
          Object.keys(vocabulary.tools).sort().join(", ")
        }`,
      };
    }
    if (entry.builtin !== undefined && !(entry.builtin in vocabulary.builtins)) {
      return {
        ok: false,
        error: `plugins.${index}.builtin: unknown built-in '${entry.builtin}'; known: ${
          Object.keys(vocabulary.builtins).sort().join(", ")
        }`,
      };
    }
    plugins.push({
      tool: entry.tool,
      builtin: entry.builtin,
      name: entry.name ?? entry.tool ?? entry.builtin ?? "",
      requires: entry.requires ?? {},
      note: entry.note ?? null,
      options: entry.options ?? {},
      stem,
      file,
      optIn,
    });
  }
  return { ok: true, value: { stem, file, optIn, plugins } };
}

/**
 * The providers a plugin file declares affinity for, or `null` when universal
 * (docs/configuration.md#tool-plugin-files): a `vendor` names its provider; `openai_key` and
 * `surface` tie a plugin to `openai`. Unparseable text is universal, so the loader still reads it
 * and reports the real error.
 */
export function pluginProviders(text: string): ReadonlySet<string> | null {
  const parsed = looseFile(text);
  const providers = new Set<string>();
  for (const plugin of parsed?.plugins ?? []) {
    const requires = isRecord(plugin) && isRecord(plugin.requires) ? plugin.requires : {};
    if (typeof requires.vendor === "string") providers.add(requires.vendor);
    if (requires.openai_key === true || typeof requires.surface === "string") {
      providers.add("openai");
    }
  }
  return providers.size ? providers : null;
}

/** Whether a plugin file matters to `provider` (`null` = no filtering). */
export function pluginRelevantTo(text: string, provider: string | null): boolean {
  if (provider === null) return true;
  const affinity = pluginProviders(text);
  return affinity === null || affinity.has(provider);
}

/** Whether a plugin file is a powerful (opt-in) stem; unparseable text is not. */
export function pluginOptsIn(text: string): boolean {
  return looseFile(text)?.opt_in === true;
}

/** What activation is checked against (docs/tools.md#the-shipped-stems). */
export interface ActivationContext {
  /** `AI_PROVIDER`. */
  readonly provider: string;
  /** `AI_SDK`. */
  readonly sdk: string;
  /** The resolved surface. */
  readonly surface: string;
  /** The environment `env_set`/`openai_key` read. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The unmet requirement reasons of `requires` under `ctx`, in a fixed order; empty = active. */
export function unmetReasons(requires: Requires, ctx: ActivationContext): string[] {
  const reasons: string[] = [];
  const { vendor, sdk, surface } = requires;
  if (vendor !== undefined && ctx.provider !== vendor) {
    reasons.push(`needs the '${vendor}' provider (AI_PROVIDER=${vendor})`);
  }
  if (sdk !== undefined && ctx.sdk !== sdk) reasons.push(`needs the '${sdk}' SDK (AI_SDK=${sdk})`);
  if (surface !== undefined && ctx.surface !== surface) {
    reasons.push(`needs the OpenAI '${surface}' surface`);
  }
  if (requires.openai_key && !(ctx.env.AI_API_KEY && ctx.provider === "openai")) {
    reasons.push(
      "needs the openai provider (AI_PROVIDER=openai) and an API key (AI_API_KEY)",
    );
  }
  for (const name of requires.env_set ?? []) {
    if (!ctx.env[name]) reasons.push(`needs ${name} set`);
  }
  return reasons;
}

/** The environment variables a plugin's activation reads (`env_set`, `openai_key`). */
export function credentialVars(requires: Requires): string[] {
  return [...(requires.openai_key ? ["AI_API_KEY"] : []), ...(requires.env_set ?? [])];
}

function looseFile(text: string): { plugins?: unknown[]; opt_in?: unknown } | null {
  try {
    const raw: unknown = JSON.parse(text);
    if (!isRecord(raw)) return null;
    return { plugins: Array.isArray(raw.plugins) ? raw.plugins : [], opt_in: raw.opt_in };
  } catch {
    return null;
  }
}
