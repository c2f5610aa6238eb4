/**
 * The shipped defaults, embedded in the program. Text imports are resolved at build time, so
 * `deno compile` carries these files inside the binary and a box needs nothing but the binary.
 * The installer copies them into the config home; the wake falls back to them for a home that
 * was never installed.
 */
import initialize from "../../defaults/prompts/initialize.md" with { type: "text" };
import systemPrompt from "../../defaults/prompts/system-prompt.md" with { type: "text" };

/** The shipped `prompts/system-prompt.md`: the personality, as shipped. */
export const DEFAULT_SYSTEM_PROMPT: string = systemPrompt;

/** The shipped `prompts/initialize.md`: operating guidance and the input-security floor. */
export const DEFAULT_INITIALIZE: string = initialize;

/**
 * Every shipped default keyed by its POSIX path relative to the config home (contracts §4.1),
 * sorted. The empty `mcp/` and `tools/` directories carry no files yet.
 */
export const SHIPPED_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  "prompts/initialize.md": initialize,
  "prompts/system-prompt.md": systemPrompt,
});
