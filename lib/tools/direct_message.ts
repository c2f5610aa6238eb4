/**
 * `send_direct_message_to_origin`: one push message to the operator's phone over ntfy
 * (docs/tools.md#send_direct_message_to_origin-page-the-operator; opt-in plugin stem of the same name, active only
 * when `NTFY_DM_TOKEN` is set).
 *
 * It is deliberately not speech: it posts nothing to the timeline, so the outbound gate is not
 * involved and the call never counts as the turn having posted (no `recordAct`). The body is
 * refused, never truncated, past ntfy's 4096-byte message limit, because a cut-off urgent message
 * could say the opposite of what was meant. The token is a secret: it is redacted from every
 * text this module produces, the model's result and the journal line alike.
 *
 * @module
 */
import { fencedFetch } from "../base/host_fence.ts";
import * as z from "../base/zod.ts";
import { errorMessage } from "../base/error_text.ts";
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { directMessageFailed, directMessageSent } from "../journal/catalogue_engine.ts";
import { silentJournal } from "../journal/journal.ts";
import type { PlatformContext } from "./shared/platform_context.ts";

/** The public ntfy topic used when `NTFY_DM_URL` is unset. */
export const DEFAULT_NTFY_DM_URL = "https://ntfy.sh/BaseCradle-Direct-Message";

/** ntfy's message size limit, in UTF-8 bytes; a longer body is refused. */
export const MAX_DIRECT_MESSAGE_BYTES = 4096;

/** How long to wait before the one retry (transport error or 5xx). */
const RETRY_DELAY_MS = 1000;

/** Where the direct message goes, as the wake's environment says. */
export interface DirectMessageEndpoint {
  /** `NTFY_DM_URL`, else {@link DEFAULT_NTFY_DM_URL}. */
  readonly url: string;
  /** `NTFY_DM_TOKEN`; undefined makes every call a readable refusal. Never logged. */
  readonly token?: string;
}

/** A malformed `NTFY_DM_URL`; the message names the variable. */
export class DirectMessageConfigError extends Error {
  /** Always "DirectMessageConfigError". */
  override name = "DirectMessageConfigError";
}

/**
 * The endpoint from environment variables (blank values read as unset).
 * @throws {DirectMessageConfigError} when `NTFY_DM_URL` is not an http(s) URL.
 */
export function directMessageEndpointFrom(
  read: (name: string) => string | undefined,
): DirectMessageEndpoint {
  const token = read("NTFY_DM_TOKEN")?.trim() || undefined;
  const raw = read("NTFY_DM_URL")?.trim();
  if (!raw) return { url: DEFAULT_NTFY_DM_URL, token };
  let protocol = "";
  try {
    protocol = new URL(raw).protocol;
  } catch { /* refused below */ }
  if (protocol !== "http:" && protocol !== "https:") {
    // The same sentence lib/config/env.ts gives, so the two checks cannot drift in meaning.
    throw new DirectMessageConfigError(
      `NTFY_DM_URL must be an http(s) URL such as https://ntfy.sh/my-topic, got '${raw}'.`,
    );
  }
  return { url: raw, token };
}

/** Test seams; every field has a production default. */
export interface DirectMessageOptions {
  /** Waits before the retry (default: a 1 s timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The HTTP client (default: the global fetch). */
  readonly fetch?: typeof fetch;
}

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    body: {
      type: "string",
      description: `The message text, at most ${MAX_DIRECT_MESSAGE_BYTES} UTF-8 bytes.`,
    },
  },
  required: ["body"],
};

const ArgsSchema = z.looseObject({ body: z.string() });

/** One attempt's result: sent, or failed with a reason and whether a retry may help. */
type Attempt = { readonly ok: true } | {
  readonly ok: false;
  readonly reason: string;
  readonly retryable: boolean;
};

/** Sends one direct message to the operator over ntfy. */
export class DirectMessageTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "send_direct_message_to_origin";
  /** What it does, for the model. */
  readonly description: string =
    "Send a push notification straight to your operator's phone. This is NOT a timeline " +
    "message: nobody on the timeline sees it, and it does not count as a reply. Use it only " +
    `for urgent matters the operator must know now. The body is at most ` +
    `${MAX_DIRECT_MESSAGE_BYTES} UTF-8 bytes; a longer one is refused, not cut.`;
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = PARAMETERS;

  readonly #endpoint: DirectMessageEndpoint;
  readonly #context?: PlatformContext;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #fetch: typeof fetch;

  /** Builds the tool for `endpoint`; `context` gives the agent's handle and the journal. */
  constructor(
    endpoint: DirectMessageEndpoint,
    context?: PlatformContext,
    options: DirectMessageOptions = {},
  ) {
    super();
    this.#endpoint = endpoint;
    this.#context = context;
    this.#sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
    this.#fetch = fencedFetch("ntfy", options.fetch);
  }

  /** Sends `args.body`; every failure comes back as one sentence the model can read. */
  async run(args: unknown, call?: ToolContext): Promise<string> {
    const parsed = ArgsSchema.safeParse(args ?? {});
    if (!parsed.success) {
      call?.reportOutcome?.("invalid");
      return "Error: 'send_direct_message_to_origin' needs a string 'body'.";
    }
    const body = parsed.data.body;
    if (!body.trim()) {
      call?.reportOutcome?.("invalid");
      return "Error: 'body' is empty; write the message to send.";
    }
    const bytes = new TextEncoder().encode(body);
    if (bytes.length > MAX_DIRECT_MESSAGE_BYTES) {
      call?.reportOutcome?.("invalid");
      return `Error: 'body' is ${bytes.length} UTF-8 bytes; the limit is ` +
        `${MAX_DIRECT_MESSAGE_BYTES}. Shorten it and send again (nothing was sent).`;
    }
    const journal = this.#context?.journal ?? silentJournal;
    const token = this.#endpoint.token;
    if (!token) {
      const reason = "NTFY_DM_TOKEN is not set";
      directMessageFailed(journal, { bytes: bytes.length, reason });
      call?.reportOutcome?.("refused");
      return `Error: direct message not sent — ${reason}.`;
    }
    const handle = this.#context?.self.handle?.trim();
    const title = handle ? `BaseCradle DM from @${handle.replace(/^@/, "")}` : "BaseCradle DM";

    let attempt = await this.#attempt(bytes, token, title, call?.signal);
    if (!attempt.ok && attempt.retryable && !call?.signal?.aborted) {
      await this.#sleep(RETRY_DELAY_MS);
      attempt = await this.#attempt(bytes, token, title, call?.signal);
    }
    if (!attempt.ok) {
      const reason = redact(attempt.reason, token);
      directMessageFailed(journal, { bytes: bytes.length, reason });
      return `Error: direct message not sent — ${reason}.`;
    }
    directMessageSent(journal, { bytes: bytes.length, title });
    return `Direct message sent to the operator (${bytes.length} bytes).`;
  }

  async #attempt(
    bytes: Uint8Array,
    token: string,
    title: string,
    signal?: AbortSignal,
  ): Promise<Attempt> {
    let response: Response;
    try {
      response = await this.#fetch(this.#endpoint.url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          // Header values must be ByteStrings; a non-Latin-1 handle is encoded the way ntfy
          // documents for titles (RFC 2047), so such a handle cannot make the request fail.
          Title: headerSafe(title),
          Priority: "5",
          Tags: "speech_balloon",
        },
        body: bytes.slice(),
        signal,
      });
    } catch (error) {
      return {
        ok: false,
        reason: `transport error: ${oneLine(errorMessage(error))}`,
        retryable: true,
      };
    }
    // The body is drained either way, so the connection is released; its text is the detail.
    const detail = oneLine(await response.text().catch(() => "")).slice(0, 200);
    if (response.ok) return { ok: true };
    return {
      ok: false,
      reason: `HTTP ${response.status}${detail ? `: ${detail}` : ""}`,
      retryable: response.status >= 500,
    };
  }
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
