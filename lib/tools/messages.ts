/**
 * `messages`: read the conversation the wake did not hand the agent, and speak. `list` shows a
 * timeline's recent messages newest first, `read` one message in full, `create` posts — to the
 * engaged timeline, or to another one the agent can view (the working → support escalation).
 * See docs/tools.md#the-messages-tool.
 *
 * Speech goes through the outbound gate, never the client: a create is screened, posted with
 * the turn's Idempotency-Key (kind `message`), recorded as a visible act, and logged `posted`
 * by the gate. Every outcome is text for the model: a gate refusal names the failed check so
 * the model can fix its message; a platform refusal is relayed as `Couldn't …: <detail>` and
 * logged ERROR `post failed` (red). One call, never a blind retry: a double post would wake
 * the recipient twice.
 */
import * as z from "../base/zod.ts";
import { codePointLength, headCodePoints } from "../base/code_points.ts";
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { GateRefusal } from "../gate/refusal.ts";
import { postFailed } from "../journal/catalogue.ts";
import { type Message, OutcomeUnknownError, PlatformError } from "../platform/mod.ts";
import { pyRepr } from "../pycompat/repr.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import { redactRefusedFields, unknownOutcome } from "./shared/relay.ts";

/** Most messages one `list` returns; when it bites, the reply says there may be more. */
export const LIST_LIMIT = 50;
/** How much of a body a `list` line shows before eliding; `read` shows it all. */
export const PREVIEW_CHARS = 160;

const ACTIONS = "Use 'list', 'read', or 'create'.";

// Unknown keys are tolerated (models add stray ones); present keys must have the right type.
const Args = z.object({
  action: z.string().nullish(),
  uuid: z.string().nullish(),
  body: z.string().nullish(),
  timeline: z.string().nullish(),
}).passthrough();

/** The human sentence a platform error carries: its `detail`, else `title`, else its message. */
function explain(error: PlatformError): string {
  return error.detail || error.title || error.message;
}

/** One message as a line: `uuid=… · @handle · created_at — body` (elided) or header + body. */
export function messageLine(message: Message, preview: boolean): string {
  let body = message.content.body;
  if (preview && codePointLength(body) > PREVIEW_CHARS) {
    body = `${headCodePoints(body, PREVIEW_CHARS).trimEnd()}…`;
  }
  const head = `uuid=${message.content.uuid} · @${message.user.handle} · ${message.created_at}`;
  return preview ? `${head} — ${body}` : `${head}\n\n${body}`;
}

/** The `messages` tool. Construct it bound, or bind it once the wake knows its timeline. */
export class MessagesTool extends Tool {
  /** The name the model calls the tool by. */
  readonly name = "messages";
  /** What the model reads about the tool: its actions, and that posting is how it speaks. */
  readonly description: string =
    "Read and post messages on a timeline. action='list' shows recent messages on a " +
    "timeline, newest first, each with its uuid, author, time, and a preview (what was said " +
    "before you woke); action='read' returns one message in full by uuid; action='create' " +
    "posts a new message and returns its uuid. A 'create' posts to the current timeline by " +
    "default; pass a 'timeline' uuid to post to another timeline you can view. Cross-timeline " +
    "posting is how you escalate: keep a project's working timeline clean, and when you need " +
    "help, post into a separate support timeline. Posting is the only way you speak: your " +
    "final reply text is never posted. Every post passes deterministic checks (no " +
    "credentials, a length limit, the operator's rules); if one fails, nothing is posted and " +
    "the reply names the check so you can fix the message.";
  /** The JSON Schema of the tool's arguments, as the model sees it. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      action: { type: "string", enum: ["list", "read", "create"], description: "What to do." },
      uuid: { type: "string", description: "The message's uuid (read only). Get it from 'list'." },
      body: { type: "string", description: "The text of the message to post (create only)." },
      timeline: {
        type: "string",
        description: "Optional timeline uuid to act on instead of the current one (list and " +
          "create). Omit to use the timeline you are engaged on.",
      },
    },
    required: ["action"],
  };

  #context: PlatformContext | undefined;

  /** `context` may come later, through {@link bind}. */
  constructor(context?: PlatformContext) {
    super();
    this.#context = context;
  }

  /** Connects the tool to a live platform and timeline (replacing any earlier binding). */
  bind(context: PlatformContext): void {
    this.#context = context;
  }

  /** Dispatches on `action`; every outcome is a text for the model. */
  async run(args: unknown, call?: ToolContext): Promise<string> {
    const context = this.#context;
    if (context === undefined) {
      return "Error: the 'messages' tool is not connected to a timeline yet, so it cannot act " +
        "on BaseCradle. It must be bound to a platform context before it can list, read or " +
        "post messages.";
    }
    const parsed = Args.safeParse(args ?? {});
    if (!parsed.success) {
      const key = parsed.error.issues[0].path.join(".");
      return key
        ? `Error: '${key}' must be a string. ${ACTIONS}`
        : `Error: the arguments must be an object with an 'action'. ${ACTIONS}`;
    }
    const { action, uuid, body } = parsed.data;
    const timeline = parsed.data.timeline || context.timeline;
    try {
      if (action === "list") return await this.#list(context, timeline);
      if (action === "read") {
        if (!uuid) return "Error: 'read' needs the message's uuid. Use 'list' to find it.";
        return messageLine(await context.client.messages.get(uuid), false);
      }
    } catch (error) {
      if (error instanceof PlatformError) return `Couldn't ${action} messages: ${explain(error)}`;
      throw error;
    }
    if (action === "create") return await this.#create(context, timeline, body, call, args);
    if (action === undefined || action === null || action === "") {
      return `Error: 'action' is required. ${ACTIONS}`;
    }
    return `Error: unknown action ${pyRepr(action)}. ${ACTIONS}`;
  }

  async #list(context: PlatformContext, timeline: string): Promise<string> {
    // One past the cap, so "there may be more" is said only when another message exists.
    const rows = await context.client.messages.list({ timeline, limit: LIST_LIMIT + 1 })
      .toArray();
    if (rows.length === 0) return "No messages on this timeline yet.";
    const lines = rows.slice(0, LIST_LIMIT).map((m) => messageLine(m, true));
    if (rows.length > LIST_LIMIT) {
      lines.push(`(showing the ${LIST_LIMIT} most recent; there may be more)`);
    }
    return `Messages on this timeline (newest first):\n${lines.join("\n")}`;
  }

  async #create(
    context: PlatformContext,
    timeline: string,
    body: string | null | undefined,
    call: ToolContext | undefined,
    args: unknown,
  ): Promise<string> {
    // The key is asked for before the body is validated: the recovery counts this call's
    // ordinal from the transcript whether or not it carried a body, so every create-shaped
    // call takes its place in the count.
    const idempotencyKey = call ? await context.idempotencyKey("message", call.callId) : undefined;
    if (!body) return "Error: 'create' needs a 'body' — the text of the message to post.";
    try {
      const message = await context.gate.post({ timeline, body, kind: "tool", idempotencyKey });
      context.recordAct("message");
      return `Posted to timeline ${timeline}. The new message's uuid is ${message.content.uuid}.`;
    } catch (error) {
      // The gate already logged `post blocked`; the model reads which check failed.
      if (error instanceof GateRefusal) {
        redactRefusedFields(args, error);
        call?.reportOutcome?.("blocked");
        return `Couldn't create a message: ${error.message}`;
      }
      if (error instanceof OutcomeUnknownError) {
        // It may well have been posted: count it as said, so no nudge asks for it again, but
        // not as posted: the wake that settles it counts it then.
        context.recordAct("message", false);
        return unknownOutcome(error, { context, timeline, what: "message" });
      }
      if (!(error instanceof PlatformError)) throw error;
      // The agent thought, spent tokens and could not speak: the loudest routine failure, and
      // only visible to an operator if it is logged here.
      postFailed(context.journal, { timeline, kind: "tool", error: explain(error) });
      return `Couldn't create a message: ${explain(error)}`;
    }
  }
}
