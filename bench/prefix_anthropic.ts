/**
 * Prompt-cache stability of the Anthropic request (`bench/prefix_bench.ts --provider anthropic`),
 * measured on the wire: an `n`-wake conversation on one timeline, each wake the REAL
 * `harness wake` process with `AI_PROVIDER=anthropic` (the real anthropic SDK) against the
 * in-process sandbox and a scripted Messages wire mock, a pass-through proxy keeping each body as
 * the SDK serialised it. Before each wake the peer posts a new message; the model answers with a
 * `messages` create (every third wake also `users` me; with `--notes` it also rewrites notes, so
 * the volatile tail changes every wake), then narrates.
 *
 * Each wake's FIRST request is rendered in the API's order (tools → system → messages, the
 * `cache_control` markers left out: lib/sandbox/model/anthropic_cache.ts) and cut at its
 * breakpoints. Two figures:
 * - breakpoint 1: the bytes up to it are identical in every wake (the tools and the charter);
 * - breakpoint 2: the previous wake's bytes up to its breakpoint 2 — the entry it wrote — are a
 *   byte-identical prefix of this wake's request and end within the API's lookback (20 blocks
 *   before this wake's breakpoint 2), so this wake reads it. Target: ≥ 95% of wakes from wake 5.
 */
import { anthropicMessage, type FixtureCall } from "../tests/support/model_mock.ts";
import { modelTap, say, world } from "../tests/e2e/wake_support.ts";
import { renderPrefixes } from "../lib/sandbox/model/anthropic_cache.ts";

/** Share of wakes, from {@link FROM_WAKE}, whose request reads the previous wake's entry. */
export const BREAKPOINT_2_TARGET = 0.95;
/** The first wake (1-based) the breakpoint-2 target applies to. */
export const FROM_WAKE = 5;
/** How many blocks before a breakpoint the API looks back for an earlier entry. */
export const LOOKBACK_BLOCKS = 20;

/** One wake's first request, cut at its breakpoints. */
export interface AnthropicRow {
  wake: number;
  /** Breakpoints in the request (two once the timeline has a saved conversation). */
  breakpoints: number;
  /** Rendered length, in UTF-16 code units. */
  length: number;
  /** Rendered bytes up to breakpoint 1 / 2 (0 when absent). */
  upTo1: number;
  upTo2: number;
  /** Identical bytes up to breakpoint 1 as wake 1. */
  same1: boolean;
  /** The previous wake's breakpoint-2 prefix starts this request (false for wake 1). */
  prefix2: boolean;
  /** Blocks between the previous wake's breakpoint 2 and this one's (-1 for wake 1). */
  distance: number;
  /** `prefix2` and within the lookback: this request reads the previous wake's entry. */
  hit2: boolean;
}

/** The whole measurement. */
export interface AnthropicReport {
  rows: AnthropicRow[];
  /** Every wake's bytes up to breakpoint 1 were identical. */
  breakpoint1Identical: boolean;
  /** Share of wakes from {@link FROM_WAKE} with `hit2`. */
  breakpoint2Share: number;
  pass: boolean;
}

/** How the conversation is run. */
export interface AnthropicOptions {
  /** The model also rewrites working-state notes every wake. */
  readonly notes?: boolean;
}

const blocks = (text: string) => text.split("\n").length - 1;

/** Runs the conversation and measures each wake's first Messages request. */
export async function measureAnthropic(
  n: number,
  options: AnthropicOptions = {},
): Promise<AnthropicReport> {
  await using w = await world();
  await using tap = modelTap(w);
  w.model.always("model", {
    json: { type: "model", id: "claude-bench", max_input_tokens: 200_000 },
  });
  const env = {
    AI_PROVIDER: "anthropic",
    AI_SDK: "anthropic",
    AI_SDK_SURFACE: "messages",
    AI_MODEL: "claude-bench",
    // The anthropic SDK appends /v1/messages itself.
    AI_BASE_URL: tap.baseURL.replace(/\/v1$/, ""),
    HARNESS_WAKE_BREAKER_MAX: "1000",
  };
  const firsts: string[] = [];
  for (let i = 1; i <= n; i++) {
    await say(w, `Message ${i}: how is item #${i} going? Please reply briefly.`);
    const calls: FixtureCall[] = [{
      id: `toolu_${i}_0`,
      name: "messages",
      arguments: { action: "create", body: `Item #${i} is on track.` },
    }];
    if (i % 3 === 0) calls.push({ id: `toolu_${i}_1`, name: "users", arguments: { action: "me" } });
    if (options.notes) {
      calls.push(
        { id: `toolu_${i}_2`, name: "note_write", arguments: { key: "progress", value: `${i}` } },
        {
          id: `toolu_${i}_3`,
          name: "note_write",
          arguments: { key: `item/${i}`, value: `Item #${i} is on track.` },
        },
      );
    }
    w.model.reply(
      "messages",
      { json: anthropicMessage({ content: calls.map((toolUse) => ({ toolUse })) }) },
      { json: anthropicMessage({ content: [{ text: `Answered message ${i}.` }] }) },
    );
    const before = tap.requests.length;
    const result = await w.wake([], env);
    if (result.code !== 0 || !/wake end .*outcome=ok/.test(result.stderr)) {
      throw new Error(`wake ${i} did not end ok (exit ${result.code}):\n${result.stderr}`);
    }
    const sent = tap.requests.slice(before).filter((r) => r.path.endsWith("/v1/messages"));
    if (sent.length < 2) throw new Error(`wake ${i} made ${sent.length} Messages requests`);
    firsts.push(sent[0].text);
  }
  const rendered = firsts.map((text) => renderPrefixes(JSON.parse(text)));
  const rows = rendered.map((r, k): AnthropicRow => {
    const previous = rendered[k - 1];
    const before = previous?.prefixes[1];
    const prefix2 = before !== undefined && r.whole.startsWith(before);
    const here = r.prefixes[1];
    const distance = before !== undefined && here !== undefined
      ? blocks(here) - blocks(before)
      : -1;
    return {
      wake: k + 1,
      breakpoints: r.prefixes.length,
      length: r.whole.length,
      upTo1: r.prefixes[0]?.length ?? 0,
      upTo2: here?.length ?? 0,
      same1: r.prefixes[0] === rendered[0].prefixes[0],
      prefix2,
      distance,
      hit2: prefix2 && distance >= 0 && distance <= LOOKBACK_BLOCKS,
    };
  });
  const judged = rows.filter((r) => r.wake >= FROM_WAKE);
  const breakpoint2Share = judged.length ? judged.filter((r) => r.hit2).length / judged.length : 0;
  const breakpoint1Identical = rows.every((r) => r.same1 && r.breakpoints >= 1);
  return {
    rows,
    breakpoint1Identical,
    breakpoint2Share,
    pass: breakpoint1Identical && breakpoint2Share >= BREAKPOINT_2_TARGET,
  };
}

/** The report as the bench prints it. */
export function anthropicTable(report: AnthropicReport): string {
  const lines = [
    `deno ${Deno.version.deno}: ${report.rows.length} wakes, AI_PROVIDER=anthropic; the first`,
    "Messages request of each, rendered tools → system → messages (UTF-16 code units)",
    "wake  bps  length  upTo1  upTo2  bp1=wake1  prev bp2 prefix  blocks since  reads prev",
  ];
  for (const r of report.rows) {
    // Wake 1 has no earlier entry, and wake 2's predecessor had no saved turns to mark.
    const none = r.wake === 1 || report.rows[r.wake - 2].breakpoints < 2;
    lines.push(
      `${String(r.wake).padStart(4)} ${String(r.breakpoints).padStart(4)} ${
        String(r.length).padStart(7)
      } ${String(r.upTo1).padStart(6)} ${String(r.upTo2).padStart(6)}  ${
        (r.same1 ? "yes" : "NO").padEnd(9)
      }  ${(none ? "—" : r.prefix2 ? "yes" : "no").padEnd(15)}  ${
        String(none ? "—" : r.distance).padStart(12)
      }  ${none ? "—" : r.hit2 ? "yes" : "no"}`,
    );
  }
  lines.push("");
  lines.push(
    `breakpoint 1: bytes identical in every wake — ${report.breakpoint1Identical ? "yes" : "NO"}`,
  );
  lines.push(
    `breakpoint 2: the previous wake's entry read in ${
      (report.breakpoint2Share * 100).toFixed(1)
    }% of wakes from wake ${FROM_WAKE} (target ≥ ${BREAKPOINT_2_TARGET * 100}%) — ${
      report.pass ? "pass" : "FAIL"
    }`,
  );
  return lines.join("\n");
}
