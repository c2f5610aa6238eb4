/**
 * Persisted transcript growth per step (issue target: ≤ 6 KB per step however large the tool
 * outputs — multiply the tools' output 50× and the file does not move).
 *
 *   deno run -A bench/growth_bench.ts [--wakes 10] [--chars 6000] [--json]
 *
 * Each run is a conversation of N wakes, each the REAL `harness wake` process against the
 * in-process sandbox and a scripted model. A second timeline the agent can view holds one long
 * message (`--chars` code points; the 50× run: 50 times that). Before each wake the peer asks a
 * short question on the engaged timeline; the model then takes three steps: `messages` read of
 * the long message (a real tool returning its whole body), `messages` create of a short reply,
 * a closing narration. After each wake the transcript file
 * (`$HARNESS_HOME/sessions/timeline%3A<uuid>.json`) is read: its growth in bytes, split by step —
 * a step is one assistant turn with the tool results and the step counter that go with it; the wake's
 * user turn counts in its first step, so the steps sum to the file's growth. A step's bytes are
 * measured exactly: the file is `json.dumps(records, indent=2, ensure_ascii=True)` (checked
 * byte for byte), and a step costs `size(records up to its end) − size(records before it)`.
 *
 * Runs: 1× and 50× output (ASCII text), judged; plus an informative 1× run whose output is
 * Cyrillic (non-ASCII), since the caps count code points while the file escapes each non-ASCII
 * character as six bytes.
 *
 * Targets: the largest step ≤ 6144 bytes in the 1× and 50× runs, and the 50× run's mean growth per
 * step within 1% of the 1× run's (the elision marker names the cut sizes, so a longer number
 * is the only difference). Prints a table; exits 1 when a target is missed.
 */
import { parseArgs } from "node:util";
import { dumpsIndented } from "../lib/pycompat/json.ts";
import { chatCompletion } from "../tests/support/model_mock.ts";
import { say, session, sessionPath, world } from "../tests/e2e/wake_support.ts";
import { asUser } from "../tests/support/cleared.ts";

/** Bytes a step may add to the transcript file. */
export const STEP_CAP_BYTES = 6 * 1024;
/** How much larger the 50× run's mean growth per step may be than the 1× run's. */
export const SAME_WITHIN = 0.01;

/** One run's result. */
export interface Growth {
  /** Code points of the long message's body. */
  readonly chars: number;
  /** Code points the tool returned (header + body). */
  readonly toolChars: number;
  /** File size after each wake, bytes. */
  readonly fileBytes: number[];
  /** Growth of each wake, bytes. */
  readonly wakeGrowth: number[];
  /** Every step's bytes, in order. */
  readonly steps: number[];
  /** Steps the model took (chat requests). */
  readonly modelSteps: number;
}

/** Bytes of `text` as UTF-8. */
const bytes = (text: string) => new TextEncoder().encode(text).length;

/** A body of exactly `chars` code points cut from repeated `unit`. */
function bodyOf(unit: string, chars: number): string {
  const points = [...unit.repeat(Math.ceil(chars / [...unit].length))].slice(0, chars);
  return points.join("");
}

/** Runs `wakes` wakes whose tool reads a `chars`-code-point message built from `unit`. */
export async function measureGrowth(
  wakes: number,
  chars: number,
  unit = "lorem ipsum dolor sit amet, ",
): Promise<Growth> {
  await using w = await world();
  const { timeline: library } = await w.peer.client.timelines.create({ name: "library" });
  await w.peer.client.timelines.addParticipant(library.uuid, w.agent.uuid);
  const long = await w.peer.client.messages.create(
    library.uuid,
    asUser("message", { body: bodyOf(unit, chars) }),
  );
  const env = { HARNESS_WAKE_BREAKER_MAX: "1000" };
  const fileBytes: number[] = [];
  const wakeGrowth: number[] = [];
  const steps: number[] = [];
  let toolChars = 0;
  let before = 0;
  let records = 0;
  for (let i = 1; i <= wakes; i++) {
    await say(w, `Question ${i}: what does the long note say about part ${i}?`);
    w.model.reply(
      "chat",
      {
        json: chatCompletion({
          toolCalls: [{
            id: `call_${i}_read`,
            name: "messages",
            arguments: { action: "read", uuid: long.content.uuid },
          }],
        }),
      },
      {
        json: chatCompletion({
          toolCalls: [{
            id: `call_${i}_post`,
            name: "messages",
            arguments: { action: "create", body: `Part ${i}: it is in the note.` },
          }],
        }),
      },
      { json: chatCompletion({ content: `Answered question ${i}.` }) },
    );
    const hits = w.model.hits("chat");
    const result = await w.wake([], env);
    if (result.code !== 0 || !/wake end .*outcome=ok/.test(result.stderr)) {
      throw new Error(`wake ${i} did not end ok (exit ${result.code}):\n${result.stderr}`);
    }
    if (w.model.hits("chat") - hits !== 3) throw new Error(`wake ${i} did not take 3 steps`);
    // What the model saw: the read's result in full (the second request's last tool message).
    const seen = (w.model.requestsTo("chat").at(-2)!.body as {
      messages: { role: string; content: string }[];
    }).messages.findLast((m) => m.role === "tool")!.content;
    toolChars = [...seen].length;
    const text = await Deno.readTextFile(sessionPath(w));
    const all = await session(w);
    if (dumpsIndented(all) !== text.replace(/\n$/, "")) {
      throw new Error("the transcript file is not json.dumps(indent=2, ensure_ascii=True)");
    }
    const size = (n: number) => n === 0 ? 0 : bytes(dumpsIndented(all.slice(0, n)));
    // Step boundaries: each assistant turn ends the step that began after the previous one.
    let start = records;
    for (let k = records; k < all.length; k++) {
      if (all[k].role !== "assistant") continue;
      const end = afterResults(all, k);
      steps.push(size(end) - size(start));
      start = end;
    }
    if (start !== all.length) steps[steps.length - 1] += size(all.length) - size(start);
    const now = bytes(text);
    fileBytes.push(now);
    wakeGrowth.push(now - before);
    before = now;
    records = all.length;
  }
  return { chars, toolChars, fileBytes, wakeGrowth, steps, modelSteps: w.model.hits("chat") };
}

/** Index just past the assistant turn at `k` and its tool results (a step counter opens the next). */
function afterResults(all: Record<string, unknown>[], k: number): number {
  let end = k + 1;
  while (end < all.length && all[end].role === "tool") end++;
  return end;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      wakes: { type: "string", default: "10" },
      chars: { type: "string", default: "6000" },
      json: { type: "boolean", default: false },
    },
  });
  const wakes = Number(values.wakes);
  const chars = Number(values.chars);
  const one = await measureGrowth(wakes, chars);
  const fifty = await measureGrowth(wakes, chars * 50);
  const cyrillic = await measureGrowth(wakes, chars, "данные отчёта, ");
  const perStep = (g: Growth) => g.fileBytes.at(-1)! / g.steps.length;
  const checks = {
    oneMax: Math.max(...one.steps) <= STEP_CAP_BYTES,
    fiftyMax: Math.max(...fifty.steps) <= STEP_CAP_BYTES,
    same: perStep(fifty) <= perStep(one) * (1 + SAME_WITHIN),
  };
  const pass = checks.oneMax && checks.fiftyMax && checks.same;
  if (values.json) {
    console.log(JSON.stringify({ wakes, chars, one, fifty, cyrillic, checks, pass }));
  } else {
    console.log(`deno ${Deno.version.deno}: ${wakes} wakes × 3 steps per run (bytes)`);
    console.log(
      "run                 tool output  file after  growth/wake  growth/step  largest step",
    );
    const row = (name: string, g: Growth) =>
      console.log(
        `${name.padEnd(20)}${String(g.toolChars).padStart(11)}${
          String(g.fileBytes.at(-1)).padStart(12)
        }${mean(g.wakeGrowth).toFixed(0).padStart(13)}${perStep(g).toFixed(0).padStart(13)}${
          String(Math.max(...g.steps)).padStart(14)
        }`,
      );
    row("1× (ASCII)", one);
    row("50× (ASCII)", fifty);
    row("1× Cyrillic (info)", cyrillic);
    console.log("(tool output in code points, as the model saw it)");
    console.log("");
    const ok = (b: boolean) => b ? "pass" : "FAIL";
    console.log(`largest step ≤ ${STEP_CAP_BYTES} B, 1×:   ${ok(checks.oneMax)}`);
    console.log(`largest step ≤ ${STEP_CAP_BYTES} B, 50×:  ${ok(checks.fiftyMax)}`);
    console.log(
      `50× growth/step within ${SAME_WITHIN * 100}% of 1×: ${ok(checks.same)} ` +
        `(${(perStep(fifty) - perStep(one)).toFixed(1)} B/step apart)`,
    );
    const cyr = Math.max(...cyrillic.steps);
    console.log(
      `(info) Cyrillic largest step ${cyr} B: ${
        cyr <= STEP_CAP_BYTES ? "within" : "OVER"
      } ${STEP_CAP_BYTES} B`,
    );
  }
  if (!pass) Deno.exitCode = 1;
}
