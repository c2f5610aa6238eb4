/**
 * Which plugin files a resolution considers (docs/configuration.md#tool-plugin-files): the config
 * home's `tools/` overlay when the installer laid tools down, else the embedded defaults. A
 * Python-era overlay is understood by stem: `tools/<stem>.py` of a shipped stem stands for that
 * stem's shipped plugin (the runtime cannot run Python, but the stem's meaning carried over); any
 * other `.py` is an operator's own Python plugin and is reported, never run.
 */
import { SHIPPED_TOOL_DEFAULTS } from "./defaults.ts";
import { stemOf } from "./plugins.ts";

/** The shipped tool stems, sorted (`assets` … `xai_search`). */
export const SHIPPED_STEMS: readonly string[] = Object.keys(SHIPPED_TOOL_DEFAULTS)
  .map((rel) => stemOf(rel.slice("tools/".length)))
  .sort();

/**
 * Python-era default stems this runtime retired: their `.py` is not an operator plugin, and
 * the reason says what replaced it.
 */
export const RETIRED_STEMS: Readonly<Record<string, string>> = Object.freeze({
  memory: "a retired Python-era default: the memory tool now comes from the memory provider " +
    "(HARNESS_MEMORY_PROVIDER); delete this file",
});

/** The shipped plugin text of a stem, or `undefined` for an unknown stem. */
export function shippedPluginText(stem: string): string | undefined {
  return SHIPPED_TOOL_DEFAULTS[`tools/${stem}.json`];
}

/** One file a resolution will read, in load order. */
export interface CandidateFile {
  /** The name under `tools/` (`assets.json`, `assets.py`). */
  readonly file: string;
  /** Its stem. */
  readonly stem: string;
  /** The plugin text to parse (a legacy `.py` of a shipped stem reads the shipped text). */
  readonly text: string;
  /** A shipped default by name: a broken one is a defect, not a soft skip. */
  readonly shipped: boolean;
}

/** A file the overlay holds but the resolution does not read, and why. */
export interface IgnoredFile {
  /** The name under `tools/`. */
  readonly file: string;
  /** Its stem. */
  readonly stem: string;
  /** Why it is not read (a sentence fragment, as a skip reason). */
  readonly reason: string;
}

/** The overlay split into what is read and what is reported. */
export interface OverlayWalk {
  /** Files to parse, sorted by file name. */
  readonly candidates: readonly CandidateFile[];
  /** Files skipped before parsing. */
  readonly ignored: readonly IgnoredFile[];
  /** Sorted stems of every plugin file walked (`overlay_tool_stems`). */
  readonly stems: readonly string[];
}

/** True for the names the loader walks: `*.json` and (legacy) `*.py`. */
export function isPluginFileName(file: string): boolean {
  return /^[^/\\]+\.(json|py)$/.test(file) && !file.startsWith(".");
}

/**
 * Walks an overlay's files (name → text). `.json` files are candidates; a `.py` of a shipped
 * stem is a candidate carrying the shipped text unless a `.json` for the stem exists; other
 * `.py` files are ignored with a reason. Other names (`*.new`, notes) are not plugin files.
 */
export function walkOverlay(files: Readonly<Record<string, string>>): OverlayWalk {
  const names = Object.keys(files).filter(isPluginFileName).sort();
  const candidates: CandidateFile[] = [];
  const ignored: IgnoredFile[] = [];
  for (const file of names) {
    const stem = stemOf(file);
    const shippedText = shippedPluginText(stem);
    if (file.endsWith(".json")) {
      candidates.push({ file, stem, text: files[file], shipped: shippedText !== undefined });
    } else if (names.includes(`${stem}.json`)) {
      ignored.push({
        file,
        stem,
        reason: `a Python-era plugin file; ${stem}.json provides this stem now — port any ` +
          "edits into it, then delete the .py",
      });
    } else if (shippedText !== undefined) {
      candidates.push({ file, stem, text: shippedText, shipped: true });
    } else {
      ignored.push({
        file,
        stem,
        reason: RETIRED_STEMS[stem] ??
          "a Python plugin file; this runtime cannot run Python — port it to an MCP server " +
            "(mcp/*.json) or to a tools/*.json plugin naming a built-in tool",
      });
    }
  }
  const stems = [...new Set(names.map(stemOf))].sort();
  return { candidates, ignored, stems };
}
