/**
 * Request prefix stability, measured on the wire (issue target: from the 5th wake of a
 * conversation on, at least 85% of the characters of each wake's first model request are a
 * byte-identical prefix of the previous wake's first request).
 *
 *   deno run -A bench/prefix_bench.ts [--wakes 20] [--notes] [--knowledge] [--json]
 *                                     [--provider anthropic]
 *
 * With `--provider anthropic` it measures the Anthropic Messages request instead, cut at its two
 * cache breakpoints (bench/prefix_anthropic.ts).
 *
 * With `--knowledge` the config home holds a knowledge pack (three files, about 3 KB) that is
 * rendered after the charter in every request (docs/context.md#the-knowledge-pack).
 *
 * With `--notes` the model also keeps working-state notes, so every wake's request carries a
 * different notes block in its volatile tail (docs/context.md#the-working-state-block).
 *
 * A 20-wake conversation on one timeline, each wake the REAL `harness wake` process against the
 * in-process sandbox and a scripted model: before each wake the peer posts a new message; the
 * model answers by calling `messages` create (and, every third wake, `users` me as well), then
 * narrates. A pass-through proxy in front of the model mock keeps every request body exactly
 * as the SDK serialised it. For each wake, its FIRST chat request is compared with the previous
 * wake's first request: longest common prefix / length, in code points.
 *
 * Baseline (computed offline from the same recorded bodies): the "brief at the tail" layout —
 * the charter (leading system message) and the volatile system note moved to the end of the
 * messages array, everything else unchanged, re-serialised with JSON.stringify (which is
 * checked to reproduce each recorded body byte for byte before it is trusted).
 *
 * Prints a table; exits 1 when a wake from the 5th on is under the target.
 */
import { parseArgs } from "node:util";
import { chatCompletion, type FixtureCall } from "../tests/support/model_mock.ts";
import { commonPrefix, modelTap, say, world } from "../tests/e2e/wake_support.ts";
import { anthropicTable, measureAnthropic } from "./prefix_anthropic.ts";

/** The target: ratio ≥ this from wake {@link FROM} on. */
export const TARGET = 0.85;
/** The first wake (1-based) the target applies to. */
export const FROM = 5;

/** One wake's first request against the previous wake's, in code points. */
export interface Ratio {
  length: number;
  prefix: number;
  ratio: number;
}

/** One wake's numbers: as sent, and the offline re-layouts of the same bodies. */
export interface Row {
  wake: number;
  /** As sent on the wire. */
  wire: Ratio;
  /** The same body with `tools` before `messages`. */
  toolsFirst: Ratio;
  /** Baseline: the whole brief at the tail of `messages` (wire key order). */
  tail: Ratio;
  /** Baseline with `tools` before `messages`. */
  tailToolsFirst: Ratio;
  /** Where the wire prefix stops: 40 characters each side. */
  diverges: string;
  /** The body's top-level keys in wire order, each with its serialised size in code points. */
  parts: [key: string, size: number][];
  /** Whether the request carried a working-state block. */
  workingState: boolean;
  /** Whether the request carried a knowledge pack. */
  knowledge: boolean;
  /** The recalled-memory block of the request (automatic memory bound), or "". */
  recalled: string;
}

/** The heading automatic memory puts above what it recalls into the volatile note. */
const RECALLED = "Relevant memories from past conversations";

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

interface ChatBody {
  messages: { role: string; content: unknown }[];
  [key: string]: unknown;
}

/** The recorded body parsed, after checking JSON.stringify gives back exactly the same bytes. */
function faithful(raw: string): ChatBody {
  const body = JSON.parse(raw) as ChatBody;
  if (JSON.stringify(body) !== raw) {
    throw new Error("JSON.stringify does not reproduce the recorded body; no honest re-layout");
  }
  return body;
}

/** The same body with `tools` serialised before `messages` (every other byte unchanged). */
export function toolsFirst(raw: string): string {
  const { tools, ...rest } = faithful(raw);
  if (tools === undefined) return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === "messages") out.tools = tools;
    out[key] = value;
  }
  return JSON.stringify(out);
}

/** The same body with the charter and the volatile note moved to the end of `messages`. */
export function tailLayout(raw: string): string {
  const body = faithful(raw);
  const messages = [...body.messages];
  const moved: typeof messages = [];
  if (messages[0]?.role === "system") moved.push(messages.shift()!);
  const at = messages.findLastIndex((m) => m.role === "user");
  if (at > 0 && messages[at - 1].role === "system") moved.push(...messages.splice(at - 1, 1));
  return JSON.stringify({ ...body, messages: [...messages, ...moved] });
}

/** How the conversation is run. */
export interface MeasureOptions {
  /**
   * The model also keeps working-state notes: every wake it rewrites `progress` and adds one
   * `item/<i>` note, so each wake's request carries a different, growing notes block.
   */
  readonly notes?: boolean;
  /** Added to every wake's environment (e.g. an automatic memory provider). */
  readonly env?: Readonly<Record<string, string>>;
  /** The config home holds {@link KNOWLEDGE_FILES} in `knowledge/`. */
  readonly knowledge?: boolean;
}

/** The knowledge pack `--knowledge` lays down: a few KB of plain reference text. */
export const KNOWLEDGE_FILES: Readonly<Record<string, string>> = {
  "faq.md": "# FAQ\n\n" +
    Array.from(
      { length: 20 },
      (_, i) => `Q${i + 1}: What about topic ${i + 1}?\nA: See section ${i + 1}.`,
    )
      .join("\n\n"),
  "policies.md": "# Policies\n\n" +
    Array.from(
      { length: 20 },
      (_, i) => `- Policy ${i + 1}: requests of kind ${i + 1} go to desk ${i % 4}.`,
    )
      .join("\n"),
  "glossary.md": "# Glossary\n\n" +
    Array.from({ length: 30 }, (_, i) => `Term ${i + 1}: the ${i + 1}th thing this team names.`)
      .join("\n"),
};

/** Runs an `n`-wake conversation and measures each wake's first request against the last. */
export async function measure(n: number, options: MeasureOptions = {}): Promise<Row[]> {
  await using w = await world();
  await using tap = modelTap(w);
  const env = { AI_BASE_URL: tap.baseURL, HARNESS_WAKE_BREAKER_MAX: "1000", ...options.env };
  if (options.knowledge) {
    const dir = `${w.env.BASECRADLE_CONFIG_HOME}/knowledge`;
    await Deno.mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(KNOWLEDGE_FILES)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
  }
  const firsts: string[] = [];
  for (let i = 1; i <= n; i++) {
    await say(w, `Message ${i}: how is item #${i} going? Please reply briefly.`);
    const calls: FixtureCall[] = [{
      id: `call_${i}_0`,
      name: "messages",
      arguments: { action: "create", body: `Item #${i} is on track.` },
    }];
    if (i % 3 === 0) calls.push({ id: `call_${i}_1`, name: "users", arguments: { action: "me" } });
    if (options.notes) {
      calls.push(
        { id: `call_${i}_2`, name: "note_write", arguments: { key: "progress", value: `${i}` } },
        {
          id: `call_${i}_3`,
          name: "note_write",
          arguments: { key: `item/${i}`, value: `Item #${i} is on track.` },
        },
      );
    }
    w.model.reply(
      "chat",
      { json: chatCompletion({ toolCalls: calls }) },
      { json: chatCompletion({ content: `Answered message ${i}.` }) },
    );
    const before = tap.requests.length;
    const result = await w.wake([], env);
    if (result.code !== 0 || !/wake end .*outcome=ok/.test(result.stderr)) {
      throw new Error(`wake ${i} did not end ok (exit ${result.code}):\n${result.stderr}`);
    }
    const chats = tap.requests.slice(before).filter((r) => r.path.endsWith("/chat/completions"));
    if (chats.length < 2) throw new Error(`wake ${i} made ${chats.length} chat requests`);
    firsts.push(chats[0].text);
  }
  const series = (bodies: string[]) => bodies.map((text, k) => ratioTo(bodies[k - 1], text));
  const wire = series(firsts);
  const toolsFirstRatios = series(firsts.map(toolsFirst));
  const tail = series(firsts.map(tailLayout));
  const tailToolsFirst = series(firsts.map((b) => toolsFirst(tailLayout(b))));
  return firsts.map((text, k) => {
    const at = commonPrefix(firsts[k - 1] ?? "", text);
    return {
      wake: k + 1,
      wire: wire[k],
      toolsFirst: toolsFirstRatios[k],
      tail: tail[k],
      tailToolsFirst: tailToolsFirst[k],
      diverges: k === 0 ? "" : JSON.stringify(text.slice(Math.max(0, at - 40), at + 40)),
      parts: Object.entries(JSON.parse(text)).map(([key, value]) => [
        key,
        codePoints(JSON.stringify(value)),
      ]),
      workingState: text.includes("<working-state>"),
      knowledge: text.includes("Knowledge pack:"),
      recalled: recalledBlock(text),
    };
  });
}

/** The recalled-memory block of a request body's messages, "" when there is none. */
function recalledBlock(raw: string): string {
  for (const message of faithful(raw).messages) {
    const content = typeof message.content === "string" ? message.content : "";
    const at = content.indexOf(RECALLED);
    if (at >= 0) return content.slice(at);
  }
  return "";
}

/** `text`'s common prefix with `previous` (none for the first wake), in code points. */
export function ratioTo(previous: string | undefined, text: string): Ratio {
  const at = previous === undefined ? 0 : commonPrefix(previous, text);
  const length = codePoints(text);
  const prefix = codePoints(text.slice(0, at));
  return { length, prefix, ratio: prefix / length };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      wakes: { type: "string", default: "20" },
      json: { type: "boolean", default: false },
      notes: { type: "boolean", default: false },
      knowledge: { type: "boolean", default: false },
      // Automatic memory: each wake observes the exchange and recalls into the volatile note.
      memory: { type: "boolean", default: false },
      // `openai` (the chat wire, default) or `anthropic` (the Messages wire and its breakpoints).
      provider: { type: "string", default: "openai" },
    },
  });
  if (values.provider === "anthropic") {
    const report = await measureAnthropic(Number(values.wakes), { notes: values.notes });
    console.log(values.json ? JSON.stringify(report) : anthropicTable(report));
    if (!report.pass) Deno.exitCode = 1;
    Deno.exit();
  }
  if (values.provider !== "openai") {
    console.error(`--provider must be openai or anthropic, not '${values.provider}'`);
    Deno.exit(2);
  }
  const rows = await measure(Number(values.wakes), {
    notes: values.notes,
    knowledge: values.knowledge,
    env: values.memory ? { HARNESS_MEMORY_PROVIDER: "recall" } : {},
  });
  const judged = rows.filter((r) => r.wake >= FROM);
  const worst = (pick: (r: Row) => Ratio) => Math.min(...judged.map((r) => pick(r).ratio));
  const pass = judged.every((r) => r.wire.ratio >= TARGET);
  if (values.json) {
    console.log(
      JSON.stringify({ target: TARGET, from: FROM, worst: worst((r) => r.wire), pass, rows }),
    );
  } else {
    const cell = (r: Ratio, judge = false) =>
      `${String(r.length).padStart(7)} ${String(r.prefix).padStart(7)} ${
        r.ratio.toFixed(3).padStart(6)
      }${judge && r.ratio < TARGET ? "!" : " "}`;
    console.log(`deno ${Deno.version.deno}: ${rows.length} wakes; first chat request of each`);
    console.log("vs the previous wake's first request (code points; ! = under target)");
    console.log(
      "      as sent on the wire     | offline re-layouts of the same bodies:",
    );
    console.log(
      "                              | ours, tools first       | brief at tail           " +
        "| brief at tail, tools first",
    );
    console.log(
      "wake  length  prefix  ratio   | length  prefix  ratio   | length  prefix  ratio   " +
        "| length  prefix  ratio",
    );
    for (const r of rows) {
      const judge = r.wake >= FROM;
      console.log(
        `${String(r.wake).padStart(4)} ${cell(r.wire, judge)} |${cell(r.toolsFirst)} |${
          cell(r.tail)
        } |${cell(r.tailToolsFirst)}`,
      );
    }
    console.log("");
    console.log(
      `worst ratio from wake ${FROM}: wire ${worst((r) => r.wire).toFixed(3)}, ` +
        `tools first ${worst((r) => r.toolsFirst).toFixed(3)}, ` +
        `brief at tail ${worst((r) => r.tail).toFixed(3)}, ` +
        `brief at tail + tools first ${worst((r) => r.tailToolsFirst).toFixed(3)}`,
    );
    console.log(`target: wire ratio ≥ ${TARGET} from wake ${FROM} on — ${pass ? "pass" : "FAIL"}`);
    if (!pass) {
      const first = judged.find((r) => r.wire.ratio < TARGET)!;
      const parts = first.parts.map(([key, size]) => `${key} (${size})`).join(", ");
      console.log(`  wake ${first.wake} body keys in wire order (code points): ${parts}`);
      console.log(
        `  wake ${first.wake} diverges at code point ${first.wire.prefix} of ${first.wire.length}: ` +
          first.diverges,
      );
    }
  }
  if (!pass) Deno.exitCode = 1;
}
