/**
 * The one ntfy sender: a push message to the operator's phone, used by the
 * `send_direct_message_to_origin` tool (docs/tools.md#send_direct_message_to_origin-page-the-operator)
 * and by the harness's own escalation notices (docs/operating.md#escalation).
 *
 * One POST with a bearer token, one retry after a transport error or a 5xx (a 4xx will not get
 * better by asking again), all within one deadline ({@link NTFY_DEADLINE_MS}): a slow or silent
 * server never holds the wake longer than that, and a push that got no answer in time is
 * reported as an unknown outcome (it may have arrived), never retried. Every reason it gives
 * back has the token redacted, so a caller can log or show it as it is. It posts nothing to
 * the timeline: ntfy is not the platform.
 */
import { errorMessage } from "../../base/error_text.ts";
import { sleep as wallSleep } from "../../base/sleep.ts";
import { HostNotAllowedError } from "../../net/host_fence.ts";
import { outboundFetch } from "../../net/outbound.ts";
import { UrlRefusedError } from "../../net/refusal.ts";

/** The public ntfy topic used when `NTFY_DM_URL` is unset. */
export const DEFAULT_NTFY_DM_URL = "https://ntfy.sh/BaseCradle-Direct-Message";

/** ntfy's message size limit, in UTF-8 bytes; a caller refuses a longer body. */
export const MAX_NTFY_BYTES = 4096;

/** How long to wait before the one retry (transport error or 5xx). */
const RETRY_DELAY_MS = 1000;

/**
 * The whole send's deadline, both attempts and the wait between them included: 5 s. ntfy
 * answers a push in well under a second; past this, the wake goes on without it.
 */
export const NTFY_DEADLINE_MS = 5_000;

/** Where a push goes, as the environment says. */
export interface NtfyEndpoint {
  /** `NTFY_DM_URL`, else {@link DEFAULT_NTFY_DM_URL}. */
  readonly url: string;
  /** `NTFY_DM_TOKEN`; undefined means nothing can be sent. Never logged. */
  readonly token?: string;
}

/** A malformed `NTFY_DM_URL`; the message names the variable. */
export class NtfyConfigError extends Error {
  /** Always "DirectMessageConfigError" (the name the tool has always reported). */
  override name = "DirectMessageConfigError";
}

/**
 * The endpoint from environment variables (blank values read as unset).
 * @throws {NtfyConfigError} when `NTFY_DM_URL` is not an http(s) URL.
 */
export function ntfyEndpointFrom(read: (name: string) => string | undefined): NtfyEndpoint {
  const token = read("NTFY_DM_TOKEN")?.trim() || undefined;
  const raw = read("NTFY_DM_URL")?.trim();
  if (!raw) return { url: DEFAULT_NTFY_DM_URL, token };
  let protocol = "";
  try {
    protocol = new URL(raw).protocol;
  } catch { /* refused below */ }
  if (protocol !== "http:" && protocol !== "https:") {
    // The same sentence lib/config/env.ts gives, so the two checks cannot drift in meaning.
    throw new NtfyConfigError(
      `NTFY_DM_URL must be an http(s) URL such as https://ntfy.sh/my-topic, got '${raw}'.`,
    );
  }
  return { url: raw, token };
}

/** One push: its headers and its body. */
export interface NtfyPush {
  /** The `Title` header (non-Latin-1 text is RFC 2047 encoded). */
  readonly title: string;
  /** The `Tags` header (ntfy emoji short codes, comma-separated). */
  readonly tags: string;
  /** The message, at most {@link MAX_NTFY_BYTES} (the caller checks). */
  readonly body: Uint8Array;
}

/** Test seams and the call's abort signal; every field has a production default. */
export interface NtfyOptions {
  /**
   * Waits before the retry, ending early when the signal aborts (default: lib/base/sleep.ts).
   * The signal carries the deadline, so a wait must honour it to stay inside the deadline.
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The HTTP client (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** Aborts the request (and skips the retry). */
  readonly signal?: AbortSignal;
  /** The whole send's deadline in milliseconds (default {@link NTFY_DEADLINE_MS}). */
  readonly deadlineMs?: number;
}

/**
 * What a send came to: sent, or not, with a one-line reason that never holds the token.
 * `unknown` is set when the server took the push but gave no answer in time: it may have
 * arrived, so it must not be sent again.
 */
export type NtfyResult = { readonly ok: true } | {
  readonly ok: false;
  readonly reason: string;
  readonly unknown?: boolean;
};

/** One attempt's result: sent, or failed with a reason and whether a retry may help. */
type Attempt = { readonly ok: true } | {
  readonly ok: false;
  readonly reason: string;
  readonly retryable: boolean;
  readonly unknown?: boolean;
};

/**
 * Sends `push` to `endpoint` with `token` (Priority 5), retrying once where that may help, all
 * within the deadline. Never throws.
 */
export async function sendNtfy(
  endpoint: NtfyEndpoint & { readonly token: string },
  push: NtfyPush,
  options: NtfyOptions = {},
): Promise<NtfyResult> {
  const limit = options.deadlineMs ?? NTFY_DEADLINE_MS;
  const deadline = AbortSignal.timeout(limit);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const sleep = options.sleep ?? wallSleep;
  const send = outboundFetch("ntfy", options.fetch);
  // Why the send stopped early: the deadline, or the caller's cancel.
  const late = () =>
    deadline.aborted ? `no answer within ${seconds(limit)}` : "the call was cancelled";
  let attempt = await attemptOnce(send, endpoint, push, signal, late);
  if (!attempt.ok && attempt.retryable && !signal.aborted) {
    // The wait counts against the deadline too: it ends early when the deadline does.
    await sleep(RETRY_DELAY_MS, signal);
    if (signal.aborted) {
      attempt = { ...attempt, reason: `${attempt.reason}; then ${late()}, so no retry` };
    } else {
      attempt = await attemptOnce(send, endpoint, push, signal, late);
    }
  }
  if (attempt.ok) return { ok: true };
  const reason = redact(attempt.reason, endpoint.token);
  return attempt.unknown ? { ok: false, reason, unknown: true } : { ok: false, reason };
}

/** `5 s`, `0.2 s`. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

async function attemptOnce(
  send: typeof fetch,
  endpoint: NtfyEndpoint & { readonly token: string },
  push: NtfyPush,
  signal: AbortSignal,
  late: () => string,
): Promise<Attempt> {
  let response: Response;
  try {
    response = await send(endpoint.url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${endpoint.token}`,
        // Header values must be ByteStrings; a non-Latin-1 title is encoded the way ntfy
        // documents for titles (RFC 2047), so such a title cannot make the request fail.
        Title: headerSafe(push.title),
        Priority: "5",
        Tags: push.tags,
      },
      body: push.body.slice(),
      signal,
    });
  } catch (error) {
    if (signal.aborted) {
      // Sent, perhaps, and never answered: it may have arrived, so it is not sent again.
      return {
        ok: false,
        reason: `${late()} (it may have arrived)`,
        retryable: false,
        unknown: true,
      };
    }
    return {
      ok: false,
      reason: `transport error: ${oneLine(errorMessage(error))}`,
      // A host the rules refuse stays refused: retrying would only log the refusal twice.
      retryable: !(error instanceof HostNotAllowedError || error instanceof UrlRefusedError),
    };
  }
  // The body is drained either way (under the same deadline), so the connection is released;
  // its text is the detail.
  const detail = oneLine(await response.text().catch(() => "")).slice(0, 200);
  if (response.ok) return { ok: true };
  return {
    ok: false,
    reason: `HTTP ${response.status}${detail ? `: ${detail}` : ""}`,
    retryable: response.status >= 500,
  };
}

/** `text` with every occurrence of `secret` replaced by `***`. */
function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join("***") : text;
}

/** Whitespace runs folded to one space, trimmed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `value` as is when it is Latin-1, else RFC 2047 encoded-word UTF-8 base64. */
function headerSafe(value: string): string {
  // deno-lint-ignore no-control-regex -- the range test is the point: Latin-1 only
  if (/^[\x00-\xff]*$/.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?UTF-8?B?${btoa(binary)}?=`;
}
