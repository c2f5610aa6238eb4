/**
 * The charter's text (docs/invariants.md#6-stable-first-volatile-last): personality,
 * `initialize.md`, the tool manifest, tool defects and safety notices, composed from
 * configuration alone so it is byte-identical while nothing changed. Pure text: the wake, replay
 * and the playground compose it through lib/runtime/configured_agent.ts, never part by part.
 */

/** What separates two parts of the charter, and of the brief's volatile half. */
export const PART_JOINER = "\n\n";

/** The stable inputs of the charter. */
export interface CharterInput {
  /** The personality (`system-prompt.md`, comments stripped). */
  readonly systemPrompt?: string;
  /** `initialize.md`, comments stripped. */
  readonly initialize?: string;
  /** The manifest part. */
  readonly manifest?: string;
  /** The "Tool Defect" part. */
  readonly defects?: string;
  /** The safety part. */
  readonly safety?: string;
}

/** `Your active tools right now:` then `- <name> — <note>` / `- <name>` lines; undefined if none. */
export function manifestPart(
  entries: readonly { readonly name: string; readonly note?: string }[],
): string | undefined {
  if (!entries.length) return undefined;
  const lines = entries.map((e) => (e.note ? `- ${e.name} — ${e.note}` : `- ${e.name}`));
  return ["Your active tools right now:", ...lines].join("\n");
}

/** Header of the safety block: a provenance record of operator opt-outs, not a warning. */
export const SAFETY_HEADER =
  "Operator-configured tools beyond the shipped safe set — a deliberate, audited opt-out from " +
  "safe-by-default. This is a record of where your tools came from, not a warning: a server " +
  "marked 'active' was installed for your use, so call its tools whenever they fit. A line " +
  "saying 'not loaded' is a capability the safe policy declined; it cannot be used.";

/** The safety block, or undefined when there are no notices. */
export function safetyPart(notices: readonly string[]): string | undefined {
  const lines = notices.filter((n) => n.trim());
  if (!lines.length) return undefined;
  return [SAFETY_HEADER, ...lines.map((n) => `- ${n}`)].join("\n");
}

/** Header of the defects block: a shipped tool failed to load, which must never pass silently. */
export const DEFECT_HEADER =
  "⚠ Tool Defect — a tool shipped with your harness failed to load, so it is missing this " +
  "wake. This is a defect in your installation, not something you did: tell your operator " +
  "(re-running harness install, or deleting the damaged file, restores it).";

/** The defects block (`- <file> — failed to load: <err>` lines), or undefined when none. */
export function defectsPart(defects: readonly string[]): string | undefined {
  const lines = defects.filter((d) => d.trim());
  if (!lines.length) return undefined;
  return [DEFECT_HEADER, ...lines.map((d) => `- ${d}`)].join("\n");
}

/** The charter text (parts that are non-blank, in order), or undefined when all are blank. */
export function composeCharter(input: CharterInput): string | undefined {
  return join([
    input.systemPrompt,
    input.initialize,
    input.manifest,
    input.defects,
    input.safety,
  ]);
}

/** The non-blank parts joined by {@link PART_JOINER}, or undefined when every part is blank. */
function join(parts: readonly (string | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return kept.length ? kept.join(PART_JOINER) : undefined;
}
