/**
 * The replay tool set (docs/records.md#what-is-re-run): each tool the config home would offer,
 * with the same name, description, schema and capabilities, but nothing behind it reaches the
 * platform, the network or the disk. A call is answered from the record instead:
 *
 * - `messages` `create`: the body goes through the outbound gate's real checks (the config home's
 *   guardrails and the harness's secrets), then, when the config home configures one, the tone
 *   check (lib/replay/tone.ts: the recorded verdict for the same body, else the judge). A pass is
 *   captured as a post and answered as the tool answers a post; a refusal is answered with the
 *   gate's own refusal text. Both are verdicts.
 * - `assets`, `tasks`, `webhook_endpoints` `create`: their text fields go through the same checks
 *   the wake's gate runs on them (docs/security.md#what-each-surface-screens); a refusal is a
 *   verdict and is answered with the gate's refusal text, a pass is a verdict and goes on below.
 * - another call the record holds (same tool name and the same canonical arguments, each recorded
 *   call used once, in order): the result the record captured.
 * - another create (`assets`, `tasks`, `webhook_endpoints`): captured, answered as not sent.
 * - anything else: a "not captured in the record" result, so the model can read why.
 *
 * Once the gate has refused the agent's words `max_refusals_per_turn` times in the turn, its
 * speaking is closed as a wake's is (docs/security.md#stop-at-the-second-refusal): every further
 * post or screened create is answered with the wake's refusal, unscreened, nothing captured.
 */
import { canonicalJson } from "../home/records/canonical.ts";
import type { TurnRecord } from "../home/records/schema.ts";
import { createKind } from "../core/types/create_calls.ts";
import { Tool, type ToolContext } from "../core/types/tool.ts";
import type { JsonSchema } from "../core/types/tool.ts";
import { CheckedMessage } from "../gate/checked_message.ts";
import { clearText, type SurfaceChecks } from "../gate/clear.ts";
import type { ClearSurface } from "../gate/post_request.ts";
import type { SurfaceFields } from "../platform/mod.ts";
import { GateRefusal } from "../gate/refusal.ts";
import { toneRefusal } from "../gate/gate.ts";
import { SpeakingClosed } from "../gate/closed.ts";
import { DEFAULT_MAX_REFUSALS_PER_TURN } from "../gate/guardrails.ts";
import type { ReplayToneVerdict } from "./tone.ts";

/** One post the replayed turn would have made (never sent). */
export interface CapturedPost {
  readonly timeline: string;
  readonly text: string;
}

/** One outbound-gate decision in the replayed turn, in the record's shape. */
export interface ReplayVerdict {
  readonly kind: string;
  readonly verdict: "passed" | "refused";
  readonly checks: readonly string[];
  /** The tone check's verdict on this post, when one ran. */
  readonly tone?: ReplayToneVerdict;
}

/** One create (other than a post) the replayed turn would have made (never sent). */
export interface CapturedCreate {
  readonly name: string;
  readonly action: string;
  readonly arguments: string;
}

/** How each replayed call was answered, in call order. */
export type CallSource = "gate" | "record" | "captured" | "not_captured";

/** What the replayed turn did, gathered as its calls are answered. */
export class ReplayCapture {
  /** Posts that passed the gate. */
  readonly posts: CapturedPost[] = [];
  /** Every gate decision. */
  readonly verdicts: ReplayVerdict[] = [];
  /** Other creates. */
  readonly creates: CapturedCreate[] = [];
  /** How each call was answered. */
  readonly sources: { name: string; source: CallSource }[] = [];
  /** Gate refusals of the agent's text so far (every replay verdict is on the agent's words). */
  get refusals(): number {
    return this.verdicts.filter((v) => v.verdict === "refused").length;
  }
}

/** The text an unmatched read gets: the model reads that replay has nothing for it. */
export function notCaptured(name: string): string {
  return `Error: this '${name}' call is not captured in the record: the original turn made no ` +
    "call with these arguments, and replay never calls the platform, so there is no result for " +
    "it. Continue without it.";
}

/**
 * The recorded calls of one turn, each handed out once: the first unused call of that name whose
 * canonical arguments equal the new call's (or, for a call whose arguments were cut at the cap,
 * start the same way).
 */
class RecordedCalls {
  readonly #calls: { name: string; args?: string; result?: string; cut: boolean }[];
  readonly #used = new Set<number>();

  constructor(record: TurnRecord) {
    this.#calls = record.tool_calls.map((call) => ({
      name: call.name,
      args: call.arguments,
      result: call.result,
      cut: call.truncated === true,
    }));
  }

  /** The recorded result for `name(args)`, or undefined when none is left. */
  take(name: string, args: string): string | undefined {
    const at = this.#calls.findIndex((call, i) =>
      !this.#used.has(i) && call.name === name && call.result !== undefined &&
      call.args !== undefined &&
      (call.args === args || (call.cut && args.startsWith(call.args)))
    );
    if (at < 0) return undefined;
    this.#used.add(at);
    const call = this.#calls[at];
    return call.cut
      ? `${call.result}\n[replay: the record kept only the first 4,000 characters of this result]`
      : call.result;
  }
}

/** What a replay tool is built with. */
export interface ReplayToolOptions {
  /** The record being replayed. */
  readonly record: TurnRecord;
  /** The gate's checks (guardrails and secrets of the replay's config home). */
  readonly checks: SurfaceChecks;
  /** Where the turn's effects are gathered. */
  readonly capture: ReplayCapture;
  /** The tone check for this turn, when the config home configures one. */
  readonly tone?: { judge(body: string): Promise<ReplayToneVerdict> };
  /**
   * Refusals that close the turn's speaking (`max_refusals_per_turn`); default
   * {@link DEFAULT_MAX_REFUSALS_PER_TURN}.
   */
  readonly maxRefusals?: number;
}

/** The per-turn state every replay tool of one turn shares. */
export class ReplayTurnTools {
  readonly #recorded: RecordedCalls;
  readonly #record: TurnRecord;
  readonly #checks: SurfaceChecks;
  readonly #tone: ReplayToolOptions["tone"];
  /** Where the turn's effects go. */
  readonly capture: ReplayCapture;
  readonly #maxRefusals: number;
  #posts = 0;

  constructor(options: ReplayToolOptions) {
    this.#record = options.record;
    this.#recorded = new RecordedCalls(options.record);
    this.#checks = options.checks;
    this.#tone = options.tone;
    this.capture = options.capture;
    this.#maxRefusals = options.maxRefusals ?? DEFAULT_MAX_REFUSALS_PER_TURN;
  }

  /**
   * Whether the turn's speaking is closed, as a wake's is (docs/security.md#stop-at-the-second-refusal):
   * the gate refused the agent's words {@link ReplayToolOptions.maxRefusals} times.
   */
  get closed(): boolean {
    return this.capture.refusals >= this.#maxRefusals;
  }

  /** A stand-in for `real`: its declaration, answered from the record. */
  wrap(real: Tool): Tool {
    return new ReplayTool(real, this);
  }

  /** Answers one call (see the module's description). */
  answer(name: string, args: unknown): string | Promise<string> {
    const fields = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
    const action = typeof fields.action === "string" ? fields.action : undefined;
    if (name === "messages" && action === "create") return this.#post(fields);
    const refused = this.#screenCreate(name, action, fields);
    if (refused !== undefined) return refused;
    const canonical = canonicalJson(args ?? {});
    const recorded = this.#recorded.take(name, canonical);
    if (recorded !== undefined) {
      this.capture.sources.push({ name, source: "record" });
      return recorded;
    }
    const kind = createKind({ name, arguments: fields });
    if (kind !== undefined) {
      this.capture.creates.push({ name, action: action ?? "", arguments: canonical });
      this.capture.sources.push({ name, source: "captured" });
      return `Captured by replay, not sent: '${name}' '${action}' was not made on the platform.`;
    }
    this.capture.sources.push({ name, source: "not_captured" });
    return notCaptured(name);
  }

  /**
   * An asset's, task's or webhook endpoint's create is screened as the wake's gate screens it
   * (docs/security.md#what-each-surface-screens); a refusal is the verdict and the answer, as the
   * live tool would give it. Passed, or not a create the gate screens: undefined.
   */
  #screenCreate(
    name: string,
    action: string | undefined,
    fields: Record<string, unknown>,
  ): string | undefined {
    const request = screenedCreate(name, action, fields);
    if (request === undefined) return undefined;
    if (this.closed) return this.#blocked(name, request.phrase);
    try {
      clearText(request.surface, request.fields, this.#checks);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      this.capture.verdicts.push({
        kind: request.surface,
        verdict: "refused",
        checks: [...new Set(error.failed.map((verdict) => verdict.check))],
      });
      this.capture.sources.push({ name, source: "gate" });
      return `Couldn't ${request.phrase}: ${error.message}`;
    }
    this.capture.verdicts.push({ kind: request.surface, verdict: "passed", checks: [] });
    return undefined;
  }

  /**
   * The answer to a post or create once speaking is closed: the wake's refusal, unscreened and
   * nothing captured; not a refusal of its own.
   */
  #blocked(name: string, phrase: string): string {
    this.capture.sources.push({ name, source: "gate" });
    return `Couldn't ${phrase}: ${new SpeakingClosed(this.capture.refusals).message}`;
  }

  #post(fields: Record<string, unknown>): string | Promise<string> {
    const body = fields.body;
    if (typeof body !== "string" || body === "") {
      this.capture.sources.push({ name: "messages", source: "gate" });
      return "Error: 'create' needs a 'body' — the text of the message to post.";
    }
    if (this.closed) return this.#blocked("messages", "create a message");
    this.capture.sources.push({ name: "messages", source: "gate" });
    const timeline = typeof fields.timeline === "string" && fields.timeline !== ""
      ? fields.timeline
      : this.#record.timeline;
    try {
      CheckedMessage.screen({ timeline, body }, this.#checks.message);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      this.capture.verdicts.push({
        kind: "tool",
        verdict: "refused",
        checks: error.failed.map((verdict) => verdict.check),
      });
      return `Couldn't create a message: ${error.message}`;
    }
    // As in a wake, the tone judge runs only after every rule check passed.
    if (this.#tone === undefined) return this.#posted(timeline, body);
    return this.#tone.judge(body).then((tone) => {
      if (tone.passed) return this.#posted(timeline, body, tone);
      this.capture.verdicts.push({ kind: "tool", verdict: "refused", checks: ["tone"], tone });
      return `Couldn't create a message: ${toneRefusal(tone).message}`;
    });
  }

  #posted(timeline: string, body: string, tone?: ReplayToneVerdict): string {
    this.capture.verdicts.push({
      kind: "tool",
      verdict: "passed",
      checks: [],
      ...(tone && { tone }),
    });
    this.capture.posts.push({ timeline, text: body });
    // The uuid the original post of the same ordinal got, so a model that refers to it reads
    // what it read then; a post the original turn never made gets a fresh one.
    const spoken = (this.#record.outbound ?? []).filter((post) => post.kind === "tool");
    const uuid = spoken[this.#posts++]?.uuid ?? crypto.randomUUID();
    return `Posted to timeline ${timeline}. The new message's uuid is ${uuid}.`;
  }
}

/** The text fields of a create call the gate screens, as the live tool would send them. */
function screenedCreate(
  name: string,
  action: string | undefined,
  args: Record<string, unknown>,
): { surface: ClearSurface; fields: SurfaceFields[ClearSurface]; phrase: string } | undefined {
  if (action !== "create") return undefined;
  const text = (key: string) => typeof args[key] === "string" ? args[key] as string : undefined;
  const description = text("description");
  if (name === "assets") {
    const filename = text("filename");
    const content = text("content");
    if (filename === undefined || filename.trim() === "" || content === undefined) return undefined;
    const file = new TextEncoder().encode(content);
    return { surface: "asset", fields: { file, filename, description }, phrase: "create the file" };
  }
  if (name === "tasks") {
    const instructions = text("instructions");
    const activateAt = text("activate_at");
    if (!instructions?.trim() || !activateAt?.trim()) return undefined;
    return { surface: "task", fields: { instructions, activateAt }, phrase: "create the task" };
  }
  if (name === "webhook_endpoints" && description?.trim()) {
    return {
      surface: "webhook_endpoint",
      fields: { description },
      phrase: "create the endpoint",
    };
  }
  return undefined;
}

/** One replay stand-in: the real tool's declaration, the record's answers. */
class ReplayTool extends Tool {
  readonly name: string;
  readonly description: string;
  override readonly parameters: JsonSchema;
  override readonly requires: ReadonlySet<string>;
  readonly #turn: ReplayTurnTools;

  constructor(real: Tool, turn: ReplayTurnTools) {
    super();
    this.name = real.name;
    this.description = real.description;
    this.parameters = real.parameters;
    this.requires = real.requires;
    this.#turn = turn;
  }

  run(args: unknown, _call?: ToolContext): string | Promise<string> {
    return this.#turn.answer(this.name, args);
  }
}
