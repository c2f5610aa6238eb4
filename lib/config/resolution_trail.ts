/**
 * Tool resolution's audit trail (docs/configuration.md#harness-resolve): what each phase of
 * lib/config/tool_resolution.ts reports, per stem and as one flat list of skipped names, and each
 * stem's final verdict. One trail per resolution, so a stem's story and the flat list never
 * disagree.
 */

/** A name that did not activate. */
export interface SkippedTool {
  /** The tool name (or a file name for a broken or unreadable file). */
  readonly name: string;
  /** The stem it came from (`null` for a memory tool). */
  readonly stem: string | null;
  /** Why. */
  readonly reason: string;
}

/** A stem's verdict. */
export type StemState = "active" | "inactive" | "excluded" | "broken";

/** One stem's entry in the resolution. */
export interface StemStatus {
  /** Powerful (opt-in). */
  readonly optIn: boolean;
  /** Granted (opt-in named, or benign; in an overlay: the file is present). */
  readonly granted: boolean;
  /** The verdict. */
  readonly status: StemState;
  /** Why it is not active (`null` when active). */
  readonly reason: string | null;
  /** Function tools it contributed, sorted. */
  readonly tools: readonly string[];
  /** Built-in wire names it contributed, sorted. */
  readonly builtins: readonly string[];
  /** Credentials its contributed names depend on, sorted. */
  readonly assumesCredential: readonly string[];
  /** Its plugins that did not contribute. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

/** One stem's story as the phases write it. */
export interface StemDraft {
  optIn: boolean;
  granted: boolean;
  excluded?: string;
  broken?: string;
  tools: string[];
  builtins: string[];
  credentials: Set<string>;
  skipped: { name: string; reason: string }[];
}

/**
 * What every phase reports into: each stem's draft status, the flat skip trail, and the operator
 * lines. One trail per resolution, so a stem's story and the flat list never disagree.
 */
export class Trail {
  readonly drafts = new Map<string, StemDraft>();
  readonly skipped: SkippedTool[] = [];
  readonly excludedStems: { stem: string; reason: string }[] = [];
  readonly broken: { stem: string; file: string; error: string }[] = [];
  readonly defects: string[] = [];
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly safetyNotices: string[] = [];

  /** A fresh draft for `stem` (replacing any earlier one). */
  draft(stem: string, optIn: boolean, granted: boolean): StemDraft {
    const entry: StemDraft = {
      optIn,
      granted,
      tools: [],
      builtins: [],
      credentials: new Set(),
      skipped: [],
    };
    this.drafts.set(stem, entry);
    return entry;
  }

  /** Marks `stem` excluded before activation, for `reason`. */
  exclude(entry: StemDraft, stem: string, reason: string): void {
    entry.excluded = reason;
    this.excludedStems.push({ stem, reason });
  }

  /** Records a name that did not activate, on its stem (when known) and in the flat trail. */
  skip(entry: StemDraft | undefined, name: string, stem: string | null, reason: string): void {
    entry?.skipped.push({ name, reason });
    this.skipped.push({ name, stem, reason });
  }
}

/** A stem's verdict, from everything the phases reported into its draft. */
export function finishStem(draft: StemDraft): StemStatus {
  const active = draft.tools.length > 0 || draft.builtins.length > 0;
  let status: StemState;
  let reason: string | null;
  if (draft.excluded !== undefined) [status, reason] = ["excluded", draft.excluded];
  else if (draft.broken !== undefined) [status, reason] = ["broken", draft.broken];
  else if (active) [status, reason] = ["active", null];
  else {
    const reasons = [...new Set(draft.skipped.map((item) => item.reason))];
    [status, reason] = ["inactive", reasons.join("; ") || "no plugin activated"];
  }
  return {
    optIn: draft.optIn,
    granted: draft.granted,
    status,
    reason,
    tools: [...draft.tools].sort(),
    builtins: [...draft.builtins].sort(),
    assumesCredential: [...draft.credentials].sort(),
    skipped: draft.skipped,
  };
}
