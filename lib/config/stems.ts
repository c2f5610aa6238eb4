/**
 * The stem lists a command is asked about (`--opt-in`, `--revoke-opt-in`, `--only`): normalized
 * the one way (trimmed, a trailing `.py`/`.json` dropped) and checked against the shipped stems,
 * so a typo is refused with the nearest stem instead of granting nothing silently.
 */
import { closest } from "../base/suggest.ts";
import { SHIPPED_STEMS } from "./overlay.ts";

/** A requested stem that names no shipped plugin: a typo in the question, always fatal. */
export class UnknownStemError extends Error {
  override name = "UnknownStemError";
}

/** Normalizes a stem list: trimmed, a trailing `.py`/`.json` dropped, blanks removed. */
export function normalizeStems(stems: Iterable<string>): string[] {
  return [...stems].map((stem) => stem.trim().replace(/\.(py|json)$/, "")).filter(Boolean);
}

/** The stems of an `--opt-in`/`--only` list (every occurrence's comma-separated items). */
export function splitStems(items: readonly string[] | undefined): string[] {
  return items === undefined ? [] : normalizeStems(items.flatMap((item) => item.split(",")));
}

/**
 * Throws {@link UnknownStemError} naming the shipped stems (and the nearest one to each unknown
 * stem) when one is unknown.
 */
export function checkStems(stems: readonly string[]): void {
  const unknown = [...new Set(stems)].filter((stem) => !SHIPPED_STEMS.includes(stem)).sort();
  if (!unknown.length) return;
  const nearest = unknown.map((stem) => [stem, closest(stem, SHIPPED_STEMS)] as const)
    .filter(([, match]) => match !== undefined)
    .map(([stem, match]) => `'${match}' for '${stem}'`);
  const hint = nearest.length ? ` Did you mean ${nearest.join(", ")}?` : "";
  throw new UnknownStemError(
    `No shipped tool plugin is named: ${unknown.join(", ")}.${hint} The shipped stems are: ${
      SHIPPED_STEMS.join(", ")
    }. (Pass the plugin file stem, e.g. 'xai_search', not a tool name it resolves to, like ` +
      "'x_search'.)",
  );
}
