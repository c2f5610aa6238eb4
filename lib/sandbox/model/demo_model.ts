/**
 * The sandbox's deterministic demo model: given a conversation (already read off either wire),
 * it decides the next assistant turn. It is stateless — every decision is a pure function of the
 * request — so any number of wakes, in any order, get the same answers for the same input.
 *
 * The behaviour is the smallest one that exercises a whole wake: answer the newest user turn by
 * calling the `messages` tool once, then settle on a line of narration (the unspoken text). A
 * peer's `/imagine <prompt>` first calls an image tool, when one is offered, so a media wake runs
 * offline too; a peer's `/code <source>` first "runs" the source with the code built-in, when the
 * request offers it, so the code bridge runs offline as well (nothing is executed). A request
 * shaped like the gate's tone judge is answered as the judge (./demo_judge.ts).
 */
import { judgeQuestion, judgeTone } from "./demo_judge.ts";

/** The model id the sandbox advertises (any id is accepted; this is the one to configure). */
export const DEMO_MODEL_ID = "sandbox-demo";

/** The context window `GET /models/{id}` states, in tokens. */
export const DEMO_CONTEXT_WINDOW = 128_000;

/** Every reply the model posts opens with this, so nobody mistakes it for a real model. */
export const DEMO_PREFIX = "(sandbox demo model)";

/** The speech tool the model answers through. */
export const SPEECH_TOOL = "messages";

/** One tool call in a conversation, as either wire carried it. */
export interface DemoCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON-string arguments (never needed parsed to decide). */
  readonly arguments: string;
}

/** One turn, normalised from Chat Completions messages or Responses input items. */
export type DemoTurn =
  | { readonly role: "system"; readonly text: string }
  | { readonly role: "user"; readonly text: string }
  | { readonly role: "assistant"; readonly text: string; readonly calls: readonly DemoCall[] }
  | { readonly role: "tool"; readonly callId: string; readonly text: string };

/** What the model sees of a request. */
export interface DemoConversation {
  readonly turns: readonly DemoTurn[];
  /** Names of the function tools offered (empty when none, or `tool_choice: "none"`). */
  readonly tools: readonly string[];
  /** Present when the request offers the code built-in: the container it names, if any. */
  readonly code?: { readonly container?: string };
}

/**
 * The image tools the model draws with, in preference order, when a peer's message is
 * `/imagine <prompt>` (docs/tools.md#media-in-the-sandbox).
 */
export const IMAGE_TOOLS = ["generate_image", "grok_generate_image"] as const;

/** A peer's request for a picture: `/imagine <prompt>`. */
const IMAGINE = /^\/imagine\s+(\S[\s\S]*)$/i;

/** A peer's request for a code run: `/code <source>` (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox). */
const CODE = /^\/code\s+(\S[\s\S]*)$/i;

/** How the demo's code-run reply opens; a later step knows the run happened by it. */
export const CODE_RAN = `${DEMO_PREFIX} I ran your code in the code sandbox`;

/** How the code bridge's injected note opens. */
const ARTIFACTS_OPENING = "Your code execution produced artifacts";

/** The next assistant turn: one `messages` call, one image call, or plain text. */
export type DemoDecision =
  | {
    readonly kind: "call";
    readonly name: typeof SPEECH_TOOL;
    readonly arguments: { readonly action: "create"; readonly body: string };
  }
  | {
    readonly kind: "call";
    readonly name: typeof IMAGE_TOOLS[number];
    readonly arguments: { readonly prompt: string };
  }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "code"; readonly code: string; readonly text: string };

/** One `[created_at] handle: body` line of a rendered message batch. */
export interface PeerLine {
  readonly createdAt: string;
  readonly handle: string;
  readonly body: string;
}

// The wake renders each platform message as `[<created_at>] <handle>: <body>`
// (docs/operating.md#what-each-kind-of-item-becomes).
const PEER_LINE = /^\[([^\]\n]+)\] ([^\s:]+): ?(.*)$/;

/** Injected user turns (image captions) are the turn's own work, never a new question. */
const INJECTED_OPENINGS = ["(Showing image:", "(No image input on this model", ARTIFACTS_OPENING];

/** How the engine's reserve nudge opens (the one tool-less call after the step budget). */
const RESERVE_OPENING = "You've reached the step limit";

/**
 * The charter directive the model honours (docs/sandbox.md#the-sandboxs-demo-model): a system
 * turn holding this line keeps it from ever calling `messages`, so a charter that forbids
 * replying can be tried offline (`harness replay --config-home`).
 */
export const SILENCE_DIRECTIVE = "sandbox-model: stay silent";

/** How many words of the question the reply quotes. */
const QUOTED_WORDS = 6;

/**
 * Decides the next turn:
 * - a tone-judge request (./demo_judge.ts) ⇒ the demo judge's strict JSON verdict, as text;
 * - the newest peer line is `/imagine <prompt>`, an image tool offered and not yet called after
 *   it ⇒ one image call with that prompt;
 * - the newest peer line is `/code <source>`, the code built-in offered and no run yet after it
 *   ⇒ one code run of that source, with a line of text;
 * - `messages` offered, no system turn carrying {@link SILENCE_DIRECTIVE}, and the newest real
 *   user turn not yet answered by a `messages` call after it ⇒ one `messages` create whose body
 *   answers the newest peer line (and names the assets the code bridge reported, when it did);
 * - otherwise (the call's result came back, no tools offered, the reserve call) ⇒ narration.
 */
export function decide(conversation: DemoConversation): DemoDecision {
  const question = judgeQuestion(conversation);
  if (question) return { kind: "text", text: JSON.stringify(judgeTone(question)) };
  const { turns } = conversation;
  const userIndex = newestUserTurn(turns);
  const user = userIndex < 0 ? undefined : turns[userIndex];
  const text = user?.text ?? "";
  const peer = newestPeerLine(text);
  const spoke = speechAfter(turns, userIndex);
  // `/imagine <prompt>`: draw once with the first image tool offered, then answer as usual.
  const imagine = peer && !isDemoEcho(peer) ? IMAGINE.exec(peer.body) : null;
  const painter = IMAGE_TOOLS.find((name) => conversation.tools.includes(name));
  if (imagine && painter && !spoke && !calledAfter(turns, userIndex, painter)) {
    return { kind: "call", name: painter, arguments: { prompt: imagine[1].trim() } };
  }
  const code = peer && !isDemoEcho(peer) ? CODE.exec(peer.body) : null;
  if (code && conversation.code && !spoke && !ranCodeAfter(turns, userIndex)) {
    return { kind: "code", code: code[1].trim(), text: `${CODE_RAN}.` };
  }
  const silenced = isSilenced(turns);
  if (
    conversation.tools.includes(SPEECH_TOOL) && user && !spoke && !isDemoEcho(peer) && !silenced
  ) {
    const artifacts = artifactsAfter(turns, userIndex);
    const body = artifacts ? `${reply(text)} The code's artifacts: ${artifacts}` : reply(text);
    return { kind: "call", name: SPEECH_TOOL, arguments: { action: "create", body } };
  }
  if (silenced && user && !spoke) {
    return { kind: "text", text: "Stayed quiet: my charter tells me to stay silent." };
  }
  return { kind: "text", text: narration(turns, user !== undefined, peer, spoke) };
}

/** Whether a system turn (the charter) carries {@link SILENCE_DIRECTIVE} on a line of its own. */
export function isSilenced(turns: readonly DemoTurn[]): boolean {
  return turns.some((turn) =>
    turn.role === "system" &&
    turn.text.split("\n").some((line) => line.trim().toLowerCase() === SILENCE_DIRECTIVE)
  );
}

/**
 * Index of the newest user turn that is not injected, or -1. On the wire the `injected` flag is
 * gone, so it is recognised the way the engine makes one: a user turn right after tool results
 * (system turns between are step counters), or an image caption.
 */
export function newestUserTurn(turns: readonly DemoTurn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn.role !== "user") continue;
    if (INJECTED_OPENINGS.some((opening) => turn.text.startsWith(opening))) continue;
    if (previousNonSystem(turns, i)?.role === "tool") continue;
    return i;
  }
  return -1;
}

function previousNonSystem(turns: readonly DemoTurn[], index: number): DemoTurn | undefined {
  for (let i = index - 1; i >= 0; i--) {
    if (turns[i].role !== "system") return turns[i];
  }
  return undefined;
}

/** Whether a call to `name` was made after turn `index`. */
function calledAfter(turns: readonly DemoTurn[], index: number, name: string): boolean {
  return turns.slice(index + 1).some((turn) =>
    turn.role === "assistant" && turn.calls.some((call) => call.name === name)
  );
}

/** Whether a demo code run happened after turn `index`. */
function ranCodeAfter(turns: readonly DemoTurn[], index: number): boolean {
  return turns.slice(index + 1).some((turn) =>
    turn.role === "assistant" && turn.text.startsWith(CODE_RAN)
  );
}

/** The list of assets the code bridge's newest note after turn `index` names, if any. */
function artifactsAfter(turns: readonly DemoTurn[], index: number): string | undefined {
  const note = turns.slice(index + 1).findLast((turn) =>
    turn.role === "user" && turn.text.startsWith(ARTIFACTS_OPENING)
  );
  if (!note) return undefined;
  const list = note.text.split("\n")[0].replace(/^[^:]*:\s*/, "").replace(/\.$/, "");
  return list || undefined;
}

/** The newest `messages` call after turn `index`, with the result that answered it (if any). */
function speechAfter(
  turns: readonly DemoTurn[],
  index: number,
): { call: DemoCall; result?: string } | undefined {
  if (index < 0) return undefined;
  let found: { call: DemoCall; result?: string } | undefined;
  for (const turn of turns.slice(index + 1)) {
    if (turn.role === "assistant") {
      const call = turn.calls.findLast((c) => c.name === SPEECH_TOOL);
      if (call) found = { call };
    } else if (turn.role === "tool" && found && turn.callId === found.call.id) {
      found.result = turn.text;
    }
  }
  return found;
}

/**
 * The newest peer line of a rendered batch. A body may span lines: every line up to the next
 * `[created_at] handle:` header belongs to it.
 */
export function newestPeerLine(text: string): PeerLine | undefined {
  let newest: { createdAt: string; handle: string; lines: string[] } | undefined;
  for (const line of text.split("\n")) {
    const match = PEER_LINE.exec(line);
    if (match) newest = { createdAt: match[1], handle: match[2], lines: [match[3]] };
    else newest?.lines.push(line);
  }
  if (!newest) return undefined;
  return {
    createdAt: newest.createdAt,
    handle: newest.handle.replace(/^@/, ""),
    body: newest.lines.join("\n").trim(),
  };
}

/**
 * Another demo agent's reply is never answered: two demo agents on one timeline would otherwise
 * answer each other forever.
 */
function isDemoEcho(peer: PeerLine | undefined): boolean {
  return peer?.body.startsWith(DEMO_PREFIX) ?? false;
}

/** The body the model posts for the newest user turn. */
export function reply(userText: string): string {
  const peer = newestPeerLine(userText);
  const subject = peer?.body ?? userText.trim();
  const words = subject.split(/\s+/).filter((w) => w !== "");
  // `@` is dropped from quoted words so the echo never mentions (and wakes) anyone else.
  const quoted = words.slice(0, QUOTED_WORDS).map((w) => w.replace(/^@+/, "")).join(" ");
  const more = words.length > QUOTED_WORDS ? " …" : "";
  const kind = subject.includes("?") ? "question" : "message";
  const greeting = peer ? `@${peer.handle} thanks for the ${kind}` : `Thanks for the ${kind}`;
  const count = `${words.length} word${words.length === 1 ? "" : "s"}`;
  const summary = words.length ? `I read ${count}, starting "${quoted}${more}".` : "It was empty.";
  return `${DEMO_PREFIX} ${greeting} — ${summary} I only echo; set AI_API_KEY and AI_MODEL ` +
    "to hear from a real model.";
}

/** The closing text: what happened this turn, in one line. */
function narration(
  turns: readonly DemoTurn[],
  hasUser: boolean,
  peer: PeerLine | undefined,
  spoke: { call: DemoCall; result?: string } | undefined,
): string {
  if (!hasUser) return "Nothing new to answer this turn.";
  const who = peer ? `@${peer.handle}'s` : "the";
  const kind = (peer?.body ?? "").includes("?") ? "question" : "message";
  if (spoke) {
    const result = spoke.result ?? "";
    if (/^(Error|Couldn't)/.test(result)) {
      return `Tried to answer ${who} ${kind} on the timeline, but the post failed: ` +
        result.slice(0, 200);
    }
    return `Answered ${who} ${kind} on the timeline.`;
  }
  if (isDemoEcho(peer)) {
    return `Stayed quiet: ${who} ${kind} was another demo model's reply, and answering it ` +
      "would start an endless echo.";
  }
  const last = turns.at(-1);
  const reserve = last?.role === "system" && last.text.startsWith(RESERVE_OPENING)
    ? " before the step budget ran out"
    : "";
  return `Read ${who} ${kind}; no messages tool was offered${reserve}, so nothing was posted.`;
}
