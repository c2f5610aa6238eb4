/**
 * `harness records show`: what the agents read and said, one entry per turn, from the records
 * alone (docs/records.md#reading-what-was-said). Offline and read-only.
 */
import type { Io } from "./command.ts";
import {
  selectTurns,
  type ShownPost,
  type ShownTurn,
  showReport,
  type TurnSelection,
} from "../home/records/mod.ts";

/** How much of the inbound text the table shows; `--json` carries the whole. */
export const INBOUND_PREVIEW_CHARS = 200;
/** What stands in for a text the record kept only as a sha256. */
export const HASHES_ONLY = "(hashes only)";

/** Prints the selected turns as a table or JSON; resolves to the exit code (always 0). */
export async function showRecords(
  home: string,
  selection: TurnSelection,
  json: boolean,
  io: Io,
): Promise<number> {
  const report = showReport(await selectTurns(home, selection));
  if (json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  if (report.turns.length === 0) io.stdout(`no turns ${describe(selection)}\n`);
  else io.stdout(report.turns.map(turnBlock).join("\n"));
  if (report.unreadable > 0) io.stdout(`${report.unreadable} unreadable line(s) skipped\n`);
  return 0;
}

/** The selection in words, for the empty answer: "no turns on <t> since … with result …". */
function describe(selection: TurnSelection): string {
  const parts = [
    selection.timeline === undefined ? "recorded" : `on ${selection.timeline}`,
    selection.since === undefined ? "" : `since ${selection.since.toISOString()}`,
    selection.until === undefined ? "" : `until ${selection.until.toISOString()}`,
    selection.result === undefined ? "" : `with result ${selection.result}`,
  ];
  return parts.filter((part) => part !== "").join(" ");
}

/** One turn: a heading line, what was read, then one line per post. */
export function turnBlock(turn: ShownTurn): string {
  const cost = turn.cost_usd === null ? "-" : `$${turn.cost_usd.toFixed(4)}`;
  const head = [
    turn.at,
    turn.timeline,
    turn.result ?? "-",
    turn.model,
    `tokens in=${turn.tokens_in} out=${turn.tokens_out} cached=${turn.cached_tokens}`,
    `cost=${cost}`,
  ].join("  ");
  const lines = [head];
  if (turn.escalation_reason !== null) {
    lines.push(`  escalated: ${oneLine(turn.escalation_reason)}`);
  }
  lines.push(`  read: ${text(turn, turn.inbound.text, INBOUND_PREVIEW_CHARS)}`);
  if (turn.outbound.length === 0) lines.push("  said: nothing");
  for (const post of turn.outbound) {
    lines.push(`  said ${post.uuid}${kind(post)}: ${text(turn, post.text)}`);
  }
  return `${lines.join("\n")}\n`;
}

const kind = (post: ShownPost) => post.kind === "tool" ? "" : ` (${post.kind})`;

/** A text on one line, cut at `max` characters; the hashes stand-in when only a hash was kept. */
function text(turn: ShownTurn, value: string | null, max = Infinity): string {
  if (value === null) return turn.content === "hashes" ? HASHES_ONLY : "(not recorded)";
  const flat = oneLine(value);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
