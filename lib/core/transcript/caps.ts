/**
 * The persistence caps (docs/context.md#caps; invariant 5 of docs/invariants.md): what one step
 * may add to the transcript on disk is bounded, because every later wake replays it. The model
 * always saw the whole thing; only the archived copy is shortened, head and tail around a marker
 * that says what was cut.
 *
 * All sizes are Unicode code points of the decoded text; arguments are measured as compact JSON
 * with non-ASCII unescaped (`len(json.dumps(v, ensure_ascii=False))`), so a call is capped by what
 * it says, never by the script it is written in. Every function here is pure: it returns new
 * messages and never edits the list or the arguments it was given. Capping a capped transcript
 * changes nothing (the water-fill keeps a set that already fits whole), which is what lets every
 * save re-cap the whole transcript.
 */
import { createKind } from "../types/create_calls.ts";
import { codePointLength, headCodePoints, tailCodePoints } from "../../base/code_points.ts";
import { awaitsReissue } from "./heal.ts";
import type { Message, ToolCall } from "../types/message.ts";
import { carryNumberSpellings, jsonSize } from "../../pycompat/json.ts";
import { runEnd, runResults } from "../types/runs.ts";

/** Tool-result budget per step (one assistant turn's results). */
export const TOOL_RESULT_CAP = 4096;
/** Argument budget per step (one assistant turn's calls). */
export const TOOL_ARGS_CAP = 2048;
/** Result excerpt split: at most this much head… */
export const ELISION_HEAD = 2048;
/** …and this much tail (the sum bounds an excerpt even when the share is larger). */
export const ELISION_TAIL = 512;
/** Below this much room an excerpt is a few torn words; the short floor marker is used instead. */
export const MIN_EXCERPT = 64;
/** Longest tail kept of a cut argument. */
export const ARG_ELISION_TAIL = 128;
/** Longest `action` the stub carries back (no create action is anywhere near this long). */
export const ARG_ACTION_MAX = 128;
/** How many times the argument fit halves its budget before falling back to the stub. */
export const ARG_FIT_ATTEMPTS = 4;

/** The marker inside an elided tool result. */
export function resultMarker(cut: number, total: number): string {
  return `\n\n[... ${cut} chars elided of ${total} — this is an archived excerpt; the full result ` +
    `was shown when the tool ran. Re-run it if you need it in full. ...]\n\n`;
}

/** The marker inside an elided argument string. */
export function argumentMarker(size: number): string {
  return `\n\n[... elided from ${size} chars — this argument is an archived excerpt; the full ` +
    `value was sent when the call ran. ...]\n\n`;
}

/** The floor: all that is left when there is no room for an excerpt. */
export function gone(size: number): string {
  return `[... ${size} chars elided ...]`;
}

/** A whole floor marker, which is what the stub carries under `[elided]`. */
const GONE = /^\[\.\.\. \d+ chars elided \.\.\.\]$/;

/** The key the stub stores its floor marker under. */
export const ELIDED_KEY = "[elided]";

/**
 * Water-filling: items in ascending size (stable) each get `floor(remaining / items left)`; one that
 * fits its share is kept whole and leaves the surplus to the bigger ones, one that does not is cut
 * to its share. A set that already fits the budget is returned whole, which makes every cap built on
 * this a fixed point.
 */
export function waterFill<T>(
  items: readonly T[],
  budget: number,
  size: (item: T) => number,
  elide: (item: T, share: number, size: number) => T,
): T[] {
  const sizes = items.map(size);
  const order = items.map((_, i) => i).sort((a, b) => sizes[a] - sizes[b]);
  const kept = [...items];
  let room = budget;
  order.forEach((index, spent) => {
    const share = Math.floor(room / (items.length - spent));
    if (sizes[index] <= share) {
      room -= sizes[index];
    } else {
      kept[index] = elide(items[index], share, sizes[index]);
      room -= size(kept[index]);
    }
  });
  return kept;
}

/** A tool result cut to `budget` code points: head + marker + tail, the floor, or unchanged. */
export function elideResult(
  text: string,
  budget: number,
  total: number = codePointLength(text),
): string {
  if (total <= Math.max(budget, MIN_EXCERPT)) return text;
  // Size the marker for the widest cut it could name, so the real one never overruns the share.
  let room = budget - resultMarker(total, total).length;
  if (room < MIN_EXCERPT) return gone(total);
  room = Math.min(room, ELISION_HEAD + ELISION_TAIL);
  const tail = Math.floor(room * ELISION_TAIL / (ELISION_HEAD + ELISION_TAIL));
  const head = room - tail;
  return headCodePoints(text, head) + resultMarker(total - head - tail, total) +
    tailCodePoints(text, tail);
}

/** One argument value cut to `budget`, only when that makes it smaller. */
export function elideArgument(
  value: unknown,
  budget: number,
  size: number = jsonSize(value),
): unknown {
  if (size <= MIN_EXCERPT) return value;
  const floor = (): unknown => {
    const marker = gone(size);
    return jsonSize(marker) < size ? marker : value;
  };
  // A structure has no honest head and tail: it is whole or it is the floor.
  if (typeof value !== "string") return floor();
  const marker = argumentMarker(codePointLength(value));
  const room = budget - jsonSize(marker);
  if (room < MIN_EXCERPT) return floor();
  const tail = Math.min(Math.floor(room / 5), ARG_ELISION_TAIL);
  const elided = headCodePoints(value, room - tail) + marker + tailCodePoints(value, tail);
  return jsonSize(elided) < size ? elided : value;
}

type Arguments = Record<string, unknown>;

/** Own keys whose values JSON can hold, in the order the model wrote them. */
function argumentNames(args: Arguments): string[] {
  return Object.keys(args).filter((name) => args[name] !== undefined);
}

/** Every value gets a water-filled share of `budget` left after paying for the keys. */
function fit(args: Arguments, budget: number): Arguments {
  const names = argumentNames(args);
  const room = budget - jsonSize(Object.fromEntries(names.map((name) => [name, ""])));
  const values = waterFill(names.map((name) => args[name]), room, jsonSize, elideArgument);
  const fitted = Object.fromEntries(names.map((name, i) => [name, values[i]]));
  carryNumberSpellings(args, fitted);
  return fitted;
}

/** The last resort: only `action` (so create classification never changes) and the floor. */
export function argumentsStub(args: Arguments, size: number = jsonSize(args)): Arguments {
  const stub: Arguments = {};
  const action = Object.hasOwn(args, "action") ? args.action : undefined;
  if (typeof action === "string" && codePointLength(action) <= ARG_ACTION_MAX) stub.action = action;
  stub[ELIDED_KEY] = gone(size);
  return stub;
}

/** Already a stub? Then it is final: re-stubbing would only rewrite the size it names. */
function isStub(args: Arguments): boolean {
  const names = Object.keys(args);
  const marker = args[ELIDED_KEY];
  if (typeof marker !== "string" || !GONE.test(marker)) return false;
  if (names.length === 1) return true;
  return names.length === 2 && names[0] === "action" && typeof args.action === "string" &&
    codePointLength(args.action) <= ARG_ACTION_MAX;
}

/** One call's arguments bounded to `budget`: whole, fitted (measured, halving), or the stub. */
export function capArguments(
  args: Arguments,
  budget: number,
  size: number = jsonSize(args),
): Arguments {
  if (size <= budget || isStub(args)) return args;
  let attempt = budget;
  for (let i = 0; i < ARG_FIT_ATTEMPTS; i++) {
    const fitted = fit(args, attempt);
    if (jsonSize(fitted) <= budget) return fitted;
    attempt = Math.floor(attempt / 2);
  }
  return argumentsStub(args, size);
}

/**
 * Whether the recovery may still re-issue `call` from its recorded arguments: a create-shaped call
 * whose result is missing (in flight), the interrupted sentinel, or an unknown outcome. Its
 * arguments stay whole and outside the step's budget.
 */
export function isReplayable(call: ToolCall, result: Message | undefined): boolean {
  if (createKind(call) === undefined) return false;
  return result === undefined || awaitsReissue(result);
}

/** The capped calls of `messages[assistant]`, or `undefined` when every call is unchanged. */
function cappedCalls(messages: readonly Message[], assistant: number): ToolCall[] | undefined {
  const calls = messages[assistant].toolCalls ?? [];
  const results = runResults(messages, assistant);
  const bounded = calls.flatMap((call, i) => isReplayable(call, results.get(call.id)) ? [] : [i]);
  const fitted = waterFill(
    bounded.map((i) => calls[i].arguments),
    TOOL_ARGS_CAP,
    jsonSize,
    capArguments,
  );
  if (fitted.every((args, k) => args === calls[bounded[k]].arguments)) return undefined;
  const out = [...calls];
  bounded.forEach((i, k) => out[i] = { ...calls[i], arguments: fitted[k] });
  return out;
}

/** Tool results that take part in a budget: non-empty and not a sentinel. */
function isCappable(message: Message): boolean {
  return message.role === "tool" && !!message.content && !awaitsReissue(message);
}

/** Capped result contents by index: each step's results share one budget; orphans are capped alone. */
function cappedResults(messages: readonly Message[]): Map<number, string> {
  const capped = new Map<number, string>();
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || !message.toolCalls?.length) return;
    const step: number[] = [];
    const end = runEnd(messages, index);
    for (let i = index + 1; i < end; i++) {
      if (isCappable(messages[i])) step.push(i);
    }
    const texts = step.map((i) => messages[i].content as string);
    waterFill(texts, TOOL_RESULT_CAP, codePointLength, elideResult)
      .forEach((text, k) => capped.set(step[k], text));
  });
  // A tool message outside any run cannot come from this harness, but a file can hold anything.
  messages.forEach((message, index) => {
    if (capped.has(index) || !isCappable(message)) return;
    capped.set(index, elideResult(message.content as string, TOOL_RESULT_CAP));
  });
  return capped;
}

/** Applies capped contents/calls, copying only the messages that changed. */
function apply(
  messages: readonly Message[],
  contents: Map<number, string>,
  calls: Map<number, ToolCall[]>,
): Message[] {
  return messages.map((message, index) => {
    const content = contents.get(index);
    const toolCalls = calls.get(index);
    const contentChanged = content !== undefined && content !== message.content;
    if (!contentChanged && toolCalls === undefined) return message;
    const copy: Message = { ...message };
    if (contentChanged) copy.content = content;
    if (toolCalls) copy.toolCalls = toolCalls;
    return copy;
  });
}

/**
 * Tool results capped per step (what a load re-applies). Returns a new list; unchanged messages are
 * shared, never edited.
 */
export function capToolResults(messages: readonly Message[]): Message[] {
  return apply(messages, cappedResults(messages), new Map());
}

/** Call arguments capped per step, replayable creates kept whole. Returns a new list. */
export function capToolArguments(messages: readonly Message[]): Message[] {
  return apply(messages, new Map(), argumentCaps(messages));
}

function argumentCaps(messages: readonly Message[]): Map<number, ToolCall[]> {
  const calls = new Map<number, ToolCall[]>();
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || !message.toolCalls?.length) return;
    const capped = cappedCalls(messages, index);
    if (capped) calls.set(index, capped);
  });
  return calls;
}

/**
 * Both caps, as a save applies them: results and arguments are judged on the same input (so a
 * sentinel result keeps its create's arguments whole). Returns a new list.
 */
export function capForPersistence(messages: readonly Message[]): Message[] {
  return apply(messages, cappedResults(messages), argumentCaps(messages));
}
