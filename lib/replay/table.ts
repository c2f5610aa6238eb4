/**
 * The human form of a replay report (docs/records.md#the-diff): a header saying what the turns
 * were replayed against, one row per turn, the posted texts of each turn whose speech or result
 * changed side by side (headed by the result pair when the turn ended otherwise), the totals and
 * the `--fail-on` verdicts.
 */
import type { ReplayReport, TurnReport } from "./report.ts";

/** Width of one column of the side-by-side texts. */
const TEXT_COLUMN = 48;

const COLUMNS: readonly [string, (t: TurnReport) => string][] = [
  ["at", (t) => t.at.slice(0, 16).replace("T", " ")],
  ["before", (t) => t.original.result],
  ["after", (t) => t.replay?.result ?? "-"],
  ["charter", (t) => t.same_charter ? "same" : "changed"],
  ["sim", (t) => t.diff ? t.diff.similarity.toFixed(2) : "-"],
  ["tools", (t) => t.diff ? (t.diff.tools_changed ? "changed" : "same") : "-"],
  ["refused", (t) => t.replay ? `${t.original.refusals}→${t.replay.refusals}` : "-"],
  ["tokens_in", (t) => t.replay ? `${t.original.tokens_in}→${t.replay.tokens_in}` : "-"],
  ["cost_usd", (t) => t.replay ? `${usd(t.original.cost_usd)}→${usd(t.replay.cost_usd)}` : "-"],
  ["diff", verdictOf],
];

/** `--with-history`: the earlier user turns and transcript bytes the turn was replayed after. */
const HISTORY_COLUMN: readonly [string, (t: TurnReport) => string] = [
  "history",
  (t) => t.history ? `${t.history.turns} turns ${t.history.bytes}B` : "-",
];

function usd(cost: number | null): string {
  return cost === null ? "-" : cost.toFixed(4);
}

function verdictOf(turn: TurnReport): string {
  if (turn.status === "skipped") return `skipped: ${turn.reason}`;
  if (turn.status === "failed") return `failed: ${turn.reason}`;
  return turn.diff?.changed ? "changed" : "same";
}

/** The report as text for a person. */
export function replayTable(report: ReplayReport): string {
  const { against } = report;
  const model = against.sandbox_model
    ? "the sandbox's deterministic model"
    : `${against.model ?? "each record's model"} (${against.provider ?? "each record's provider"}` +
      `, sdk ${against.sdk}${against.base_url ? ` at ${against.base_url}` : ""})`;
  const out = [
    `replayed against ${model}, charter of ${against.config_home}` +
    `${against.with_history ? ", after the recorded history" : ""}\n`,
  ];
  if (report.turns.length === 0) {
    out.push("no turn records match the selection\n");
    return out.join("") + notes(report);
  }
  const columns = against.with_history
    ? [...COLUMNS.slice(0, -1), HISTORY_COLUMN, ...COLUMNS.slice(-1)]
    : COLUMNS;
  const header = ["turn", ...columns.map(([name]) => name)];
  const cells = report.turns.map((t) => [t.record_id.slice(0, 8), ...columns.map(([, f]) => f(t))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const render = (cols: string[]) =>
    cols.map((c, i) => i === cols.length - 1 ? c : c.padEnd(widths[i])).join("  ").trimEnd();
  out.push(`${[header, ...cells].map(render).join("\n")}\n`);
  for (const turn of report.turns) {
    const ended = turn.diff?.result_change;
    if (!turn.diff?.text_changed && !turn.diff?.spoke_changed && !ended) continue;
    // The result pair heads the texts: the same words may have ended another way.
    const pair = ended ? ` ended ${ended.before} → ${ended.after}` : "";
    out.push(`\n${turn.record_id} (${turn.timeline} #${turn.seq})${pair}:\n`);
    out.push(sideBySide(turn.original.texts.join("\n"), turn.replay?.texts.join("\n") ?? ""));
  }
  const s = report.summary;
  out.push(
    `\n${s.selected} turn(s): ${s.replayed} replayed (${s.changed} changed, ` +
      `${s.results_changed} ended otherwise), ${s.skipped} skipped, ${s.failed} failed; spoke ` +
      `${s.spoke_before} → ${s.spoke_after}; gate refusals ${s.refusals_before} → ` +
      `${s.refusals_after}; model refusals ${s.model_refusals_before} → ` +
      `${s.model_refusals_after}; replies to mentions ` +
      `${s.replies_to_mentions_before} → ${s.replies_to_mentions_after}; lowest similarity ` +
      `${s.min_similarity === null ? "-" : s.min_similarity.toFixed(2)}\n`,
  );
  return out.join("") + notes(report);
}

function notes(report: ReplayReport): string {
  const lines = report.thresholds.map((t) =>
    `fail-on ${t.rule}: ${t.crossed ? "CROSSED" : "ok"} (${t.detail})\n`
  );
  if (report.unreadable > 0) lines.push(`${report.unreadable} unreadable record line(s) skipped\n`);
  if (report.missing.length) lines.push(`no record has the id(s): ${report.missing.join(", ")}\n`);
  return lines.join("");
}

/** Two texts in two columns, `recorded` and `replayed`, each wrapped at {@link TEXT_COLUMN}. */
export function sideBySide(before: string, after: string): string {
  const left = ["recorded", ...wrap(before === "" ? "(silent)" : before)];
  const right = ["replayed", ...wrap(after === "" ? "(silent)" : after)];
  const rows = Math.max(left.length, right.length);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    lines.push(`  ${(left[i] ?? "").padEnd(TEXT_COLUMN)} │ ${right[i] ?? ""}`.trimEnd());
  }
  return `${lines.join("\n")}\n`;
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter((w) => w !== "")) {
      let rest = word;
      while (rest.length > TEXT_COLUMN) {
        if (line) {
          lines.push(line);
          line = "";
        }
        lines.push(rest.slice(0, TEXT_COLUMN));
        rest = rest.slice(TEXT_COLUMN);
      }
      if (line && line.length + 1 + rest.length > TEXT_COLUMN) {
        lines.push(line);
        line = rest;
      } else line = line ? `${line} ${rest}` : rest;
    }
    lines.push(line);
  }
  return lines;
}
