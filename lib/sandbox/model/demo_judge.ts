/**
 * The demo model as a tone judge (docs/sandbox.md#the-demo-models-tone-judge), so the gate's tone
 * check (docs/security.md#the-tone-check) can be tried offline. It recognises a judge request by
 * the shape the gate gives it — its system text opens with the judge's fixed opening and closes
 * with the answer format, its one user turn is the fenced message, no tools are offered — and
 * answers the strict JSON the gate parses: `{"pass": …, "reason": "…"}`.
 *
 * The rule is a demo rule, not a model: a message fails when it contains a word or phrase of
 * {@link TONE_MARKERS}, or a phrase the operator's instruction puts in double quotes; it passes
 * otherwise. The list is written out here rather than taken from a profanity package on purpose:
 * it must stay short, documented and predictable, so a reader of the docs knows which message
 * the demo refuses.
 */

/**
 * The rude or sarcastic markers the demo judge refuses, matched case-insensitively as whole
 * words (`dumbbell` is not `dumb`), a run of spaces matching any whitespace.
 */
export const TONE_MARKERS: readonly string[] = [
  "obviously",
  "whatever",
  "duh",
  "yeah right",
  "oh great",
  "shut up",
  "stupid",
  "idiot",
  "dumb",
  "pathetic",
];

// The judge request's fixed parts, as lib/gate/tone.ts (`judgeSystem`, `judgeUser`) writes them;
// tests/sandbox/model_tone_judge.test.ts fails when the two drift apart.
const SYSTEM_OPENING = "You review one chat message an AI agent is about to post, for tone " +
  "only. The operator's tone instruction:\n\n";
const SYSTEM_CLOSING = "\n\nAnswer with exactly one JSON object and nothing else:";
const USER_OPENING = "The message:\n<<<\n";
const USER_CLOSING = "\n>>>";

/**
 * The part of a conversation a judge request is known by: every turn's role and text, and the
 * tools offered (a `DemoConversation` is one; named here so the model and its judge stay apart).
 */
export interface JudgeCandidate {
  readonly turns: readonly { readonly role: string; readonly text: string }[];
  readonly tools: readonly string[];
}

/** What a judge request asks: the operator's instruction and the message to judge. */
export interface JudgeQuestion {
  readonly instruction: string;
  readonly body: string;
}

/** The demo judge's answer: the object the gate's `parseJudgement` reads. */
export interface DemoJudgement {
  readonly pass: boolean;
  readonly reason: string;
}

/**
 * The judge question `conversation` asks, or undefined when it is not a judge request: exactly
 * one system turn in the judge's shape, then one user turn holding the fenced message, and no
 * tools offered.
 */
export function judgeQuestion(conversation: JudgeCandidate): JudgeQuestion | undefined {
  const { turns, tools } = conversation;
  if (tools.length !== 0 || turns.length !== 2) return undefined;
  const [system, user] = turns;
  if (system.role !== "system" || user.role !== "user") return undefined;
  const instruction = between(system.text, SYSTEM_OPENING, SYSTEM_CLOSING);
  const body = between(user.text, USER_OPENING, USER_CLOSING, true);
  return instruction === undefined || body === undefined ? undefined : { instruction, body };
}

/** The text between `opening` and the last `closing` (which ends `text` when `atEnd`). */
function between(
  text: string,
  opening: string,
  closing: string,
  atEnd = false,
): string | undefined {
  if (!text.startsWith(opening)) return undefined;
  const end = atEnd ? text.length - closing.length : text.lastIndexOf(closing);
  if (end < opening.length || (atEnd && !text.endsWith(closing))) return undefined;
  return text.slice(opening.length, end);
}

/** The longest phrase a reason quotes, in characters: the gate keeps reasons short. */
const MAX_QUOTED = 80;

// Double-quoted phrases of the instruction: straight or typographic quotes.
const QUOTED = /"([^"\n]+)"|“([^”\n]+)”/g;

/** The phrases the instruction puts in double quotes, trimmed, empty ones dropped. */
export function quotedPhrases(instruction: string): string[] {
  return [...instruction.matchAll(QUOTED)]
    .map((match) => (match[1] ?? match[2]).trim())
    .filter((phrase) => phrase !== "");
}

/** Where `phrase` first occurs in `text` as whole words, ignoring case, or -1. */
function wholeWordIndex(text: string, phrase: string): number {
  const words = phrase.split(/\s+/).filter((w) => w !== "")
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length === 0) return -1;
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}_])${words.join("\\s+")}(?![\\p{L}\\p{N}_])`,
    "iu",
  );
  return pattern.exec(text.replaceAll("’", "'"))?.index ?? -1;
}

/**
 * The demo judge's decision: the first (earliest in the message) phrase the instruction quotes
 * or marker of {@link TONE_MARKERS} fails it, with a reason naming it; none passes it.
 */
export function judgeTone(question: JudgeQuestion): DemoJudgement {
  const candidates = [
    ...quotedPhrases(question.instruction).map((phrase) => ({ phrase, quoted: true })),
    ...TONE_MARKERS.map((phrase) => ({ phrase, quoted: false })),
  ];
  let found: { phrase: string; quoted: boolean; at: number } | undefined;
  for (const candidate of candidates) {
    const at = wholeWordIndex(question.body, candidate.phrase);
    if (at >= 0 && (found === undefined || at < found.at)) found = { ...candidate, at };
  }
  if (found === undefined) {
    return {
      pass: true,
      reason: "The sandbox's demo judge found no rude or sarcastic marker and no phrase the " +
        "instruction quotes.",
    };
  }
  const phrase = found.phrase.length > MAX_QUOTED
    ? `${found.phrase.slice(0, MAX_QUOTED - 1)}…`
    : found.phrase;
  const why = found.quoted
    ? "a phrase the operator's instruction quotes"
    : "a marker the sandbox's demo judge counts as rude or sarcastic";
  return {
    pass: false,
    reason: `The message says "${phrase}", ${why}; say it without that.`,
  };
}
