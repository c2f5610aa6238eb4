/**
 * `send_direct_message_to_origin`: one push message to the operator's phone over ntfy
 * (docs/tools.md#send_direct_message_to_origin-page-the-operator; opt-in plugin stem of the same name, active only
 * when `NTFY_DM_TOKEN` is set).
 *
 * It is deliberately not speech: it posts nothing to the timeline, and the call never counts as
 * the turn having posted (no `recordAct`). It is still the agent's words in front of a person,
 * so the body passes the outbound gate's text checks first (`gate.clear`, surface
 * `direct_message`: the agent's own secrets, credential shapes, the operator's patterns; a
 * public ntfy topic is a public place): a refusal is a `blocked` call and nothing is sent. The body is
 * refused, never truncated, past ntfy's 4096-byte message limit, because a cut-off urgent message
 * could say the opposite of what was meant. The token is a secret: it is redacted from every
 * text this module produces, the model's result and the journal line alike.
 *
 * @module
 */
import * as z from "../base/zod.ts";
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { GateRefusal } from "../gate/refusal.ts";
import { directMessageFailed, directMessageSent } from "../journal/catalogue_engine.ts";
import { redactRefusedFields } from "./shared/relay.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import { MAX_NTFY_BYTES, type NtfyEndpoint, type NtfyOptions, sendNtfy } from "./shared/ntfy.ts";

export {
  DEFAULT_NTFY_DM_URL,
  /** A malformed `NTFY_DM_URL`; the message names the variable. */
  NtfyConfigError as DirectMessageConfigError,
  /** The endpoint from environment variables (blank values read as unset). */
  ntfyEndpointFrom as directMessageEndpointFrom,
} from "./shared/ntfy.ts";

/** ntfy's message size limit, in UTF-8 bytes; a longer body is refused. */
export const MAX_DIRECT_MESSAGE_BYTES = MAX_NTFY_BYTES;

/** Where the direct message goes, as the wake's environment says. */
export type DirectMessageEndpoint = NtfyEndpoint;

/** Test seams; every field has a production default. */
export type DirectMessageOptions = Omit<NtfyOptions, "signal">;

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
  readonly #options: DirectMessageOptions;

  /** Builds the tool for `endpoint`; `context` gives the agent's handle and the journal. */
  constructor(
    endpoint: DirectMessageEndpoint,
    context?: PlatformContext,
    options: DirectMessageOptions = {},
  ) {
    super();
    this.#endpoint = endpoint;
    this.#context = context;
    this.#options = options;
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
    if (this.#context === undefined) {
      call?.reportOutcome?.("refused");
      return "Error: direct message not sent — the tool is not connected to a wake, so " +
        "nothing could screen it.";
    }
    const journal = this.#context.journal;
    let cleared;
    try {
      cleared = await this.#context.gate.clear({ surface: "direct_message", fields: { body } });
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      redactRefusedFields(args, error);
      call?.reportOutcome?.("blocked");
      return `Error: direct message not sent — ${error.message}`;
    }
    const token = this.#endpoint.token;
    if (!token) {
      const reason = "NTFY_DM_TOKEN is not set";
      directMessageFailed(journal, { bytes: bytes.length, reason });
      call?.reportOutcome?.("refused");
      return `Error: direct message not sent — ${reason}.`;
    }
    const handle = this.#context.self.handle?.trim();
    const title = handle ? `BaseCradle DM from @${handle.replace(/^@/, "")}` : "BaseCradle DM";

    const sent = await sendNtfy(
      { url: this.#endpoint.url, token },
      { title, tags: "speech_balloon", body: new TextEncoder().encode(cleared.fields.body) },
      { ...this.#options, signal: call?.signal },
    );
    if (!sent.ok) {
      directMessageFailed(journal, { bytes: bytes.length, reason: sent.reason });
      if (sent.unknown) {
        // Not a failure to retry: a second send could page the operator twice.
        return `The direct message may have been delivered: ${sent.reason}. Do not send it ` +
          "again; the operator may already have it.";
      }
      return `Error: direct message not sent — ${sent.reason}.`;
    }
    directMessageSent(journal, { bytes: bytes.length, title });
    return `Direct message sent to the operator (${bytes.length} bytes).`;
  }
}
