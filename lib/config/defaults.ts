/**
 * The shipped defaults, embedded in the program. Text imports are resolved at build time, so
 * `deno compile` carries these files inside the binary and a box needs nothing but the binary.
 * The installer copies them into the config home; the wake falls back to them for a home that
 * was never installed.
 */
import initialize from "../../defaults/prompts/initialize.md" with { type: "text" };
import systemPrompt from "../../defaults/prompts/system-prompt.md" with { type: "text" };
import { TOOL_PLUGIN_FILES } from "../../defaults/tools/mod.ts";

/** The shipped `prompts/system-prompt.md`: the personality, as shipped. */
export const DEFAULT_SYSTEM_PROMPT: string = systemPrompt;

/** The shipped `prompts/initialize.md`: operating guidance and the input-security floor. */
export const DEFAULT_INITIALIZE: string = initialize;

/**
 * The shipped prompt defaults keyed by their POSIX path relative to the config home
 * (docs/configuration.md#the-config-home), sorted. The tool plugins are
 * {@link SHIPPED_TOOL_DEFAULTS}; the installer reconciles both ({@link ALL_SHIPPED_DEFAULTS}).
 * `mcp/` ships empty.
 */
export const SHIPPED_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  "prompts/initialize.md": initialize,
  "prompts/system-prompt.md": systemPrompt,
});

/**
 * The shipped tool-plugin files (`tools/<stem>.json`, the declarative format of `plugins.ts`)
 * keyed by config-home-relative path, sorted: the 25 stems of docs/tools.md#the-shipped-stems.
 */
export const SHIPPED_TOOL_DEFAULTS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.keys(TOOL_PLUGIN_FILES).sort().map((file) => [`tools/${file}`, TOOL_PLUGIN_FILES[file]]),
  ),
);

/** Every shipped default the installer reconciles: prompts then tool plugins, sorted by path. */
export const ALL_SHIPPED_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  ...SHIPPED_DEFAULTS,
  ...SHIPPED_TOOL_DEFAULTS,
});
