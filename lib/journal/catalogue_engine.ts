/**
 * The engine's fact lines (docs/journal.md#the-line-catalogue): model calls, media, tools, posts,
 * the unspoken text and the step ledger. Fact heads are never coloured: dashboards anchor on
 * `llm provider=`, `tool name=`, `unspoken timeline=`, which a colour span would break.
 */
import type { Journal } from "./journal.ts";
import { codePoints, formatCost, formatDuration } from "./render.ts";
import type { PostKind } from "./catalogue_wake.ts";

/**
 * INFO `llm`: `provider [endpoint] model duration [tokens_in] [tokens_out] [tokens_total]
 * [cached_tokens] [cache_write_tokens] [cost]`.
 */
export function llmCall(journal: Journal, f: {
  /** The endpoint vendor (`openai`/`xai`/`openrouter`). */
  provider: string;
  /** The upstream that actually served the call, when the provider names one. */
  endpoint?: string | null;
  model: string;
  seconds: number;
  tokensIn?: number | null;
  tokensOut?: number | null;
  tokensTotal?: number | null;
  cachedTokens?: number | null;
  /** Input tokens written to the prompt cache (Anthropic's `cache_creation_input_tokens`). */
  cacheWriteTokens?: number | null;
  /** Dollars as the provider reported them; never derived from a price table. */
  cost?: number | null;
}): void {
  journal.event("INFO", "llm", {
    provider: f.provider,
    endpoint: f.endpoint,
    model: f.model,
    duration: formatDuration(f.seconds),
    tokens_in: f.tokensIn,
    tokens_out: f.tokensOut,
    tokens_total: f.tokensTotal,
    cached_tokens: f.cachedTokens,
    cache_write_tokens: f.cacheWriteTokens,
    cost: formatCost(f.cost),
  });
}

/** What a media call made. */
export type MediaKind = "image.generate" | "image.edit" | "video.generate" | "audio.transcribe";

/** INFO `media` (successful generations only): `provider kind model duration [cost]`. */
export function mediaCall(journal: Journal, f: {
  provider: string;
  kind: MediaKind;
  model: string;
  seconds: number;
  cost?: number | null;
}): void {
  journal.event("INFO", "media", {
    provider: f.provider,
    kind: f.kind,
    model: f.model,
    duration: formatDuration(f.seconds),
    cost: formatCost(f.cost),
  });
}

/**
 * The `tool` line's `outcome=` vocabulary: `ok`; `error` (the tool threw, or no such tool);
 * `invalid` (the model's arguments were rejected); `refused` (the tool declined on policy);
 * `blocked` (the outbound gate blocked a post). The same words as the core's `ToolOutcome`, which
 * this layer cannot import; tests/core/tool_outcomes.test.ts holds the two equal.
 */
export type ToolLineOutcome = "ok" | "error" | "invalid" | "refused" | "blocked";

/**
 * INFO `tool`: `name duration outcome`; on failure (`error` not null) also WARNING `tool`:
 * `name error`, so a WARNING-level filter still sees failing tools. `outcome` defaults to
 * `error` when an error is given and `ok` otherwise. A declined call (`invalid`, `refused`,
 * `blocked`) gets no WARNING of its own: the model was answered, and a blocked post already has
 * the gate's `post blocked` line.
 */
export function toolRun(journal: Journal, f: {
  name: string;
  seconds: number;
  outcome?: ToolLineOutcome;
  error?: string | null;
}): void {
  const failed = f.error !== undefined && f.error !== null;
  journal.event("INFO", "tool", {
    name: f.name,
    duration: formatDuration(f.seconds),
    outcome: failed ? "error" : f.outcome ?? "ok",
  });
  if (failed) journal.event("WARNING", "tool", { name: f.name, error: f.error });
}

/** INFO `posted`: `message timeline kind chars`. */
export function posted(journal: Journal, f: {
  message: string;
  timeline: string;
  kind: PostKind;
  chars: number;
}): void {
  journal.event("INFO", "posted", {
    message: f.message,
    timeline: f.timeline,
    kind: f.kind,
    chars: f.chars,
  });
}

/**
 * Which unspoken text: a turn's narration, the step-cap reserve report, the canned note, or the
 * text of a reply the model refused or the output limit cut.
 */
export type UnspokenKind = "narration" | "reserve" | "stuck" | "refused" | "truncated";

/**
 * INFO `unspoken`: `[timeline] kind chars text="…"`. The one content-bearing field: the text
 * exists nowhere else, so it is scrubbed and flattened but never truncated, and always quoted.
 * `chars` counts code points of the text as given.
 */
export function unspoken(journal: Journal, f: {
  timeline?: string | null;
  kind: UnspokenKind;
  text: string | null | undefined;
}): void {
  const body = f.text ?? "";
  journal.event("INFO", "unspoken", {
    timeline: f.timeline,
    kind: f.kind,
    chars: codePoints(body),
    text: body,
  }, { verbatim: ["text"] });
}

/**
 * INFO `step N/M: tools=a,b (1.23s)`, or `final reply` when the reply called no tool, or
 * `hook continue` when a turn hook extended a tool-less reply. Printf-style, not key=value.
 */
export function stepLine(journal: Journal, f: {
  step: number;
  maxSteps: number;
  tools: readonly string[];
  hookContinue?: boolean;
  seconds: number;
}): void {
  const action = f.tools.length > 0
    ? `tools=${f.tools.join(",")}`
    : f.hookContinue
    ? "hook continue"
    : "final reply";
  journal.text("INFO", `step ${f.step}/${f.maxSteps}: ${action} (${formatDuration(f.seconds)})`);
}

/** INFO `wake used N/M steps` (the turn settled within its budget). */
export function wakeUsedSteps(journal: Journal, f: { used: number; maxSteps: number }): void {
  journal.text("INFO", `wake used ${f.used}/${f.maxSteps} steps`);
}

/** WARNING `wake used M/M steps + reserve summary` (the budget ran out with tools still called). */
export function reserveSummary(journal: Journal, f: { maxSteps: number }): void {
  journal.text("WARNING", `wake used ${f.maxSteps}/${f.maxSteps} steps + reserve summary`);
}

/** WARNING `image degraded to text`: `timeline asset filename model reason`. */
export function imageDegraded(journal: Journal, f: {
  timeline: string;
  asset: string;
  filename: string;
  model: string;
}): void {
  journal.event("WARNING", "image degraded to text", {
    timeline: f.timeline,
    asset: f.asset,
    filename: f.filename,
    model: f.model,
    reason: "model has no vision input",
  });
}

/** WARNING `view image withheld from a model with no vision`: `images model reason`. */
export function imageWithheld(journal: Journal, f: { images: string; model: string }): void {
  journal.event("WARNING", "view image withheld from a model with no vision", {
    images: f.images,
    model: f.model,
    reason: "model has no image input",
  });
}

/**
 * WARNING `Request too large with <n> inline image(s): replaying once without them: …`: a
 * payload-too-large refusal of a request that carried images (docs/context.md).
 */
export function payloadReplay(journal: Journal, f: { images: number; error: string }): void {
  journal.text(
    "WARNING",
    `Request too large with ${f.images} inline image(s): replaying once without them: ${f.error}`,
  );
}

/**
 * WARNING `reply cut step=N call_cut=yes asked_again=yes|no`: the output limit cut a reply in
 * the middle of a tool call. The first time in a step the same context is asked again; a second
 * cut reply ends the turn `truncated`.
 */
export function replyCut(journal: Journal, f: { step: number; resumed: boolean }): void {
  journal.event("WARNING", "reply cut", {
    step: f.step,
    call_cut: "yes",
    asked_again: f.resumed ? "yes" : "no",
  }, { color: "yellow" });
}

/**
 * WARNING `Image preparation sent <n> image(s) as text: …`: images older than the newest
 * `maxImages`, or ones that could not be decoded or compressed, went as a note instead.
 */
export function imagesUnprepared(
  journal: Journal,
  f: { dropped: number; maxImages: number; failures: readonly string[] },
): void {
  const parts: string[] = [];
  if (f.dropped) parts.push(`${f.dropped} older than the newest ${f.maxImages}`);
  for (const failure of f.failures) parts.push(failure);
  journal.text(
    "WARNING",
    `Image preparation sent ${f.dropped + f.failures.length} image(s) as text: ${parts.join("; ")}`,
  );
}

/**
 * INFO `direct_message sent`: `bytes title`. The title is always quoted (it holds spaces and
 * the agent's handle); the body is never logged, only its UTF-8 size.
 */
export function directMessageSent(journal: Journal, f: { bytes: number; title: string }): void {
  journal.event("INFO", "direct_message sent", { bytes: f.bytes, title: f.title }, {
    verbatim: ["title"],
  });
}

/** WARNING `direct_message failed`: `bytes reason` (the reason already has the token redacted). */
export function directMessageFailed(journal: Journal, f: { bytes: number; reason: string }): void {
  journal.event("WARNING", "direct_message failed", { bytes: f.bytes, reason: f.reason });
}

/** What the code bridge moved: a file the run wrote, or the source it executed. */
export type CodeBridgeKind = "file" | "source";

/**
 * INFO `code_bridge stored`: `kind name asset bytes` — a code run's output file or its executed
 * source is now an asset on the timeline.
 */
export function codeBridgeStored(journal: Journal, f: {
  kind: CodeBridgeKind;
  name: string;
  asset: string;
  bytes: number;
}): void {
  journal.event("INFO", "code_bridge stored", {
    kind: f.kind,
    name: f.name,
    asset: f.asset,
    bytes: f.bytes,
  });
}

/**
 * WARNING `code_bridge failed`: `stage [name] reason` — listing the container, downloading a file,
 * or uploading it as an asset did not work; the model is told, the turn goes on.
 */
export function codeBridgeFailed(journal: Journal, f: {
  stage: "list" | "download" | "upload";
  name?: string;
  reason: string;
}): void {
  journal.event("WARNING", "code_bridge failed", {
    stage: f.stage,
    name: f.name,
    reason: f.reason,
  });
}

/** INFO `code_attach staged`: `asset name container bytes` — an asset was put in the container. */
export function codeAttachStaged(journal: Journal, f: {
  asset: string;
  name: string;
  container: string;
  bytes: number;
}): void {
  journal.event("INFO", "code_attach staged", {
    asset: f.asset,
    name: f.name,
    container: f.container,
    bytes: f.bytes,
  });
}
