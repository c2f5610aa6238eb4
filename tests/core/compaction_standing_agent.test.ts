/**
 * A standing agent, simulated: 300 peer turns through the real Engine, the caps and the compactor,
 * across wakes that reload the transcript from its on-disk form. The model is in-process and
 * honest about size: it reports `lastTokensIn` as the characters it was sent ÷ 3 and refuses
 * (`ProviderContextLengthError`) any request over its ceiling, exactly as a vendor would.
 */
import assert from "node:assert/strict";
import { capForPersistence } from "../../lib/core/transcript/caps.ts";
import {
  Compactor,
  EXCERPT_HEADER,
  SUMMARIZE_INSTRUCTION,
} from "../../lib/core/compaction/compaction.ts";
import { withOverflowHeal } from "../../lib/core/compaction/heal.ts";
import { isBoundary, transcriptChars } from "../../lib/core/compaction/cut.ts";
import { isSummary, SUMMARY_MARKER } from "../../lib/core/types/summary_marker.ts";
import { ContextCeiling } from "../../lib/core/compaction/context_ceiling.ts";
import { Engine } from "../../lib/core/engine.ts";
import { ProviderContextLengthError } from "../../lib/core/types/faults.ts";
import { Message, type ToolCall } from "../../lib/core/types/message.ts";
import { jsonSize } from "../../lib/pycompat/json.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { parseTranscript, serializeTranscript } from "../../lib/core/transcript/session_format.ts";
import { Tool, type ToolOutput, type ToolSpec } from "../../lib/core/types/tool.ts";
import { RecordingJournal } from "./engine_fixtures.ts";

const LIMIT = 8000;
const TURNS = 300;
const TURNS_PER_WAKE = 10;
const MAX_STEPS = 4;
const ORIGIN_FACT = "KEEP:origin-fact-7f3a";

/** Records a note; its result is a few hundred characters, like an ordinary tool answer. */
class NoteTool extends Tool {
  readonly name = "note";
  readonly description = "Record a working note.";
  override readonly parameters = {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  };
  runs = 0;
  run(args: { text: string }): string {
    this.runs++;
    return `noted (${this.runs}): ${args.text} ${"·".repeat(300)}`;
  }
}

/** Shows a picture, so the engine injects an image turn (a user turn that is never a boundary). */
class ViewTool extends Tool {
  readonly name = "view";
  readonly description = "Look at an asset.";
  run(): ToolOutput {
    return {
      text: "viewed 1 image(s)",
      images: [{ alt: "chart.png", mimeType: "image/png", data: "AAAA" }],
    };
  }
}

/** Request size as the model counts it: every message plus the tool declarations. */
function requestTokens(messages: readonly Message[], tools?: readonly ToolSpec[]): number {
  let chars = transcriptChars(messages);
  for (const spec of tools ?? []) {
    chars += spec.name.length + spec.description.length + jsonSize(spec.parameters);
  }
  return Math.ceil(chars / 3);
}

/** The turn number of the newest real peer turn in a request, and the steps taken since it. */
function position(messages: readonly Message[]): { turn: number; step: number } {
  let at = messages.length - 1;
  while (at >= 0 && !isBoundary(messages[at])) at--;
  const turn = Number(/^\[t(\d+)\]/.exec(messages[at]?.content ?? "")?.[1]);
  const step = messages.slice(at).filter((m) => m.role === "assistant").length + 1;
  return { turn, step };
}

/** One tool call per planned step, then plain text. Every 5th turn fans out; every 7th looks. */
function plan(turn: number): ToolCall[][] {
  const note = (n: number): ToolCall => ({
    id: `call_${n}`,
    name: "note",
    arguments: { text: `turn ${turn} step ${n}` },
  });
  if (turn % 7 === 0) return [[{ id: "call_1", name: "view", arguments: {} }]];
  if (turn % 5 === 0) return [[note(1), note(2)], [note(3)]];
  return [[note(1)]];
}

/**
 * The summarizer: keeps every `KEEP:` fact it is shown and a running count of peer turns, reading
 * the previous count out of the carried summary — so only a cumulative pipeline stays correct.
 */
function summarize(excerpt: string): string {
  const facts = [...new Set(excerpt.match(/KEEP:[\w-]+/g) ?? [])];
  const carried = Number(/peer turns so far: (\d+)/.exec(excerpt)?.[1] ?? 0);
  const fresh = excerpt.split("### user\n[t").length - 1;
  return `WORK DONE\n- notes recorded, images viewed\nWHAT WAS SAID\n- peer turns so far: ` +
    `${carried + fresh}\n- facts: ${facts.join(" ")}\nOPEN THREADS\n- none`;
}

/** The model: honest usage, a hard ceiling, a scripted agent and a cumulative summarizer. */
class StandingModel {
  readonly provider = "scripted";
  readonly model = "standing-1";
  readonly agentTokens: number[] = [];
  readonly summaryTokens: number[] = [];
  overflows = 0;
  lastTokensIn?: number;

  supportsVision(): boolean {
    return true;
  }

  chat(messages: readonly Message[], tools?: readonly ToolSpec[]): Promise<Message> {
    const tokens = requestTokens(messages, tools);
    if (tokens > LIMIT) {
      this.overflows++;
      return Promise.reject(
        new ProviderContextLengthError(`${tokens} tokens exceeds the context length`, 400),
      );
    }
    this.lastTokensIn = tokens;
    const usage = { tokensIn: tokens, tokensOut: 20 };
    if (messages[0]?.content === SUMMARIZE_INSTRUCTION) {
      this.summaryTokens.push(tokens);
      assert.equal(tools, undefined, "the summarize call offers no tools");
      const excerpt = (messages[1].content ?? "").slice(EXCERPT_HEADER.length);
      return Promise.resolve(Message.assistant({ content: summarize(excerpt), usage }));
    }
    this.agentTokens.push(tokens);
    const { turn, step } = position(messages);
    const steps = plan(turn);
    const toolCalls = steps[step - 1];
    return Promise.resolve(
      toolCalls
        ? Message.assistant({ toolCalls, usage })
        : Message.assistant({ content: `done with turn ${turn}`, usage }),
    );
  }
}

/** A peer message; turn 1 carries the fact that must survive every compaction. */
function peerTurn(turn: number, burst: ReadonlySet<number>): Message {
  const fact = turn === 1 ? ` ${ORIGIN_FACT}` : turn % 100 === 0 ? ` KEEP:fact-${turn}` : "";
  const body = burst.has(turn) ? "b".repeat(14_000) : `${"m".repeat(120)}${fact}`;
  return Message.user(`[t${turn}] ann: ${body}`, { items: [`item-${turn}`] });
}

/** Runs the simulation; returns what the assertions need. */
async function simulate(burst: ReadonlySet<number> = new Set()) {
  const model = new StandingModel();
  const journal = new RecordingJournal();
  const note = new NoteTool();
  const registry = new ToolRegistry().register(note).register(new ViewTool());
  let disk = "[]";
  const summaries: Message[] = [];
  let failed = 0;
  for (let wake = 0; wake * TURNS_PER_WAKE < TURNS; wake++) {
    // A new process: the transcript comes back from its on-disk form, budget resolved afresh.
    const messages = parseTranscript(disk, "sim.json");
    const save = () => void (disk = serializeTranscript(capForPersistence(messages)));
    const budget = new ContextCeiling(model, { override: LIMIT, maxSteps: MAX_STEPS, journal });
    const compactor = new Compactor(model, budget, {
      journal,
      onSummary: () => void summaries.push(messages.find(isSummary)!),
    });
    const engine = new Engine(model, registry, { journal, maxSteps: MAX_STEPS });
    for (let i = 1; i <= TURNS_PER_WAKE; i++) {
      const turn = peerTurn(wake * TURNS_PER_WAKE + i, burst);
      messages.push(turn);
      save();
      try {
        const result = await withOverflowHeal(
          () => engine.run(messages, { persist: save }),
          { compactor, messages, save, journal, turn },
        );
        assert.ok(result.text.startsWith("done with turn"));
      } catch (error) {
        failed++;
        throw error;
      }
      await compactor.afterTurn(messages, save);
    }
  }
  return { model, journal, summaries, failed, final: parseTranscript(disk, "sim.json") };
}

/** Every tool result sits in the run of the assistant turn that called it. */
function assertWellFormed(messages: readonly Message[]): void {
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") open = new Set(message.toolCalls?.map((c) => c.id));
    if (message.role === "tool") assert.ok(open.has(message.toolCallId ?? ""), "stranded result");
  }
}

/** The assertions both runs share: bounded, cumulative, accountable, well-formed. */
function assertStanding(run: Awaited<ReturnType<typeof simulate>>): number {
  const { model, journal, final, failed } = run;
  assert.equal(failed, 0, "no turn fails");
  assert.ok(Math.max(...model.agentTokens) <= LIMIT);
  assert.ok(Math.max(...model.summaryTokens) <= LIMIT, "the summarize call fits too");

  const compactions = journal.lines().filter((l) => l.startsWith("INFO context compact "));
  // Compaction keeps ~20% and fires at 50%, so it must be rare but regular: not every turn.
  assert.ok(compactions.length >= 10 && compactions.length <= 100, `${compactions.length}`);

  // One summary, at the head of the conversation, followed by a real peer turn.
  const at = final.findIndex(isSummary);
  assert.equal(final.filter(isSummary).length, 1);
  assert.equal(at, 0);
  assert.ok(final[at].content!.startsWith(SUMMARY_MARKER));
  assert.ok(isBoundary(final[at + 1]));
  assertWellFormed(final);

  // Cumulative: the first turn's fact and the exact count of destroyed turns survive.
  const kept = final.filter(isBoundary).flatMap((m) => m.items ?? []);
  const destroyed = TURNS - kept.length;
  const latest = final[at].content!;
  assert.ok(latest.includes(ORIGIN_FACT));
  assert.ok(latest.includes("KEEP:fact-100") && latest.includes("KEEP:fact-200"));
  const counted = Number(/peer turns so far: (\d+)\n/.exec(latest)?.[1]);
  const trimmed = journal.at("WARNING").some((l) => l.includes("did not fit"));
  // Exact unless a region had to be trimmed to fit one call — and then the loss was announced.
  if (trimmed) assert.ok(counted < destroyed, `${counted} of ${destroyed}`);
  else assert.equal(counted, destroyed);

  // Accountable: every destroyed item uuid is in the summary's items, in order, exactly once.
  const all = Array.from({ length: TURNS }, (_, i) => `item-${i + 1}`);
  assert.deepEqual([...final[at].items!, ...kept], all);
  // And each summary, as it was written, covered everything destroyed until then.
  for (const summary of run.summaries) {
    const items = summary.items ?? [];
    assert.deepEqual(items, all.slice(0, items.length));
  }
  return compactions.length;
}

Deno.test("standing agent: 300 turns stay under the ceiling, with cumulative summaries", async () => {
  const run = await simulate();
  assertStanding(run);
  assert.equal(run.model.overflows, 0, "compaction alone kept every request inside the window");
  assert.equal(run.journal.lines().some((l) => l.includes("Context overflow")), false);
  assert.equal(run.journal.at("WARNING").some((l) => l.includes("declined")), false);
  assert.equal(run.journal.at("WARNING").some((l) => l.includes("did not fit")), false);
});

Deno.test("standing agent: a turn that leaps the wall is healed, and every destroyed item is accounted for", async () => {
  // Two peer messages of ~4,700 tokens: each lands on a transcript already near the threshold.
  const run = await simulate(new Set([95, 213]));
  assertStanding(run);
  assert.ok(run.model.overflows >= 1, "the burst really hit the wall");
  const retries = run.journal.at("WARNING").filter((l) => l.includes("Retrying the turn once"));
  assert.equal(retries.length, run.model.overflows, "each overflow was healed by one retry");
  assert.ok(run.journal.lines().some((l) => l.endsWith("emergency=yes")));
});
