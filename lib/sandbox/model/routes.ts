/**
 * Mounts the demo model on the sandbox's route table under {@link MODEL_PATH}, so a wake can be
 * pointed at it with `AI_BASE_URL=<base_url>/_sandbox/model/v1`, any `AI_API_KEY` and
 * `AI_MODEL=sandbox-demo`. The routes are public (the bearer token is checked for presence only)
 * and live under `/_sandbox`, so the platform's fault injection never touches them.
 */
import type { RouteTable } from "../shared/http.ts";
import { chatCompletion, chatConversation, chatPrompt, chatStream } from "./chat_wire.ts";
import { decide, DEMO_CONTEXT_WINDOW, DEMO_MODEL_ID } from "./demo_model.ts";
import {
  imageEdit,
  imageGeneration,
  transcription,
  videoFile,
  videoGeneration,
  videoStatus,
} from "./media_wire.ts";
import { DemoContainers } from "./code_wire.ts";
import { PrefixPromptCache } from "./prompt_cache.ts";
import { responsesConversation, responsesPrompt, responsesReply } from "./responses_wire.ts";
import {
  anthropicConversation,
  anthropicErrorResponse,
  anthropicReply,
  AnthropicRequestError,
  readAnthropicRequest,
} from "./anthropic_wire.ts";
import { DemoPromptCache } from "./anthropic_cache.ts";
import {
  DEMO_CREATED,
  errorResponse,
  jsonResponse,
  MODEL_BODY_BYTES,
  ModelRequestError,
  readRequest,
} from "./wire_common.ts";

/** Where the OpenAI-compatible surface lives, relative to the sandbox's base URL. */
export const MODEL_PATH = "/_sandbox/model/v1";

/** The model's request bodies are whole conversations and media: its own, larger ceiling. */
const LARGE = { body: MODEL_BODY_BYTES } as const;

/**
 * Where the Anthropic Messages surface lives, relative to the sandbox's base URL: the
 * `AI_BASE_URL` of `AI_PROVIDER=anthropic` (the SDK appends `/v1/messages`).
 */
export const ANTHROPIC_MODEL_PATH = "/_sandbox/model/anthropic";

/** Registers the demo model's routes. */
export function modelRoutes(table: RouteTable): void {
  // The code sandbox's containers live as long as this sandbox (lib/sandbox/model/code_wire.ts).
  const containers = new DemoContainers();
  // The emulated prompt caches live as long as this sandbox too: OpenAI's automatic prefix cache
  // (./prompt_cache.ts) and Anthropic's breakpoint cache (./anthropic_cache.ts).
  const prefixCache = new PrefixPromptCache();
  const breakpointCache = new DemoPromptCache();
  table.public("POST", `${MODEL_PATH}/chat/completions`, (ctx) =>
    answer(async () => {
      const body = await readRequest(ctx.req);
      const conversation = chatConversation(body);
      const decision = decide(conversation);
      const cached = prefixCache.serve(chatPrompt(body));
      return body.stream === true
        ? chatStream(body, conversation, decision, cached)
        : jsonResponse(200, chatCompletion(body, conversation, decision, cached));
    }), LARGE);

  table.public("POST", `${MODEL_PATH}/responses`, (ctx) =>
    answer(async () => {
      const body = await readRequest(ctx.req);
      const conversation = responsesConversation(body);
      const decision = decide(conversation);
      const container = decision.kind === "code"
        ? containers.run(conversation.code?.container, decision.code)
        : undefined;
      const cached = prefixCache.serve(responsesPrompt(body));
      return jsonResponse(200, responsesReply(body, conversation, decision, container, cached));
    }), LARGE);

  table.public("POST", `${ANTHROPIC_MODEL_PATH}/v1/messages`, (ctx) =>
    answerAnthropic(async () => {
      const body = await readAnthropicRequest(ctx.req);
      const conversation = anthropicConversation(body);
      const decision = decide(conversation);
      return jsonResponse(
        200,
        anthropicReply(body, conversation, decision, breakpointCache.use(body)),
      );
    }), LARGE);

  // Any id is served, with the window and image input the Messages models API states.
  table.public(
    "GET",
    `${ANTHROPIC_MODEL_PATH}/v1/models/:id`,
    (ctx) =>
      jsonResponse(200, {
        type: "model",
        id: ctx.params.id,
        display_name: "Sandbox demo model",
        created_at: new Date(DEMO_CREATED * 1000).toISOString(),
        max_input_tokens: DEMO_CONTEXT_WINDOW,
        max_tokens: 8192,
        capabilities: { image_input: { supported: true } },
      }),
  );

  // The media routes (lib/sandbox/model/media_wire.ts): OpenAI's and xAI's share these paths.
  table.public(
    "POST",
    `${MODEL_PATH}/images/generations`,
    (ctx) => answer(() => imageGeneration(ctx.req)),
    LARGE,
  );
  table.public(
    "POST",
    `${MODEL_PATH}/images/edits`,
    (ctx) => answer(() => imageEdit(ctx.req)),
    LARGE,
  );
  table.public(
    "POST",
    `${MODEL_PATH}/audio/transcriptions`,
    (ctx) => answer(() => transcription(ctx.req)),
    LARGE,
  );
  table.public(
    "POST",
    `${MODEL_PATH}/videos/generations`,
    (ctx) => answer(() => videoGeneration(ctx.req)),
    LARGE,
  );
  table.public(
    "GET",
    `${MODEL_PATH}/videos/:id`,
    (ctx) =>
      answer(() => Promise.resolve(videoStatus(ctx.req, ctx.url, ctx.params.id, MODEL_PATH))),
  );
  table.public(
    "GET",
    `${MODEL_PATH}/media/:file`,
    (ctx) => Promise.resolve(videoFile(ctx.params.file.replace(/\.mp4$/, ""))),
  );

  // The containers API of the code sandbox (lib/sandbox/model/code_wire.ts).
  table.public(
    "POST",
    `${MODEL_PATH}/containers`,
    (ctx) => answer(() => containers.handleCreate(ctx.req)),
    LARGE,
  );
  table.public(
    "GET",
    `${MODEL_PATH}/containers/:id/files`,
    (ctx) => answer(() => Promise.resolve(containers.list(ctx.req, ctx.params.id))),
  );
  table.public(
    "POST",
    `${MODEL_PATH}/containers/:id/files`,
    (ctx) => answer(() => containers.upload(ctx.req, ctx.params.id)),
    LARGE,
  );
  table.public(
    "GET",
    `${MODEL_PATH}/containers/:id/files/:file/content`,
    (ctx) =>
      answer(() => Promise.resolve(containers.content(ctx.req, ctx.params.id, ctx.params.file))),
  );

  table.public(
    "GET",
    `${MODEL_PATH}/models`,
    () => jsonResponse(200, { object: "list", data: [modelCard(DEMO_MODEL_ID)] }),
  );

  // Any id is served: the demo model answers whatever AI_MODEL names, so its card does too.
  table.public(
    "GET",
    `${MODEL_PATH}/models/:id`,
    (ctx) => jsonResponse(200, modelCard(ctx.params.id)),
  );
}

function modelCard(id: string): Record<string, unknown> {
  return {
    id,
    object: "model",
    created: DEMO_CREATED,
    owned_by: "basecradle-sandbox",
    context_window: DEMO_CONTEXT_WINDOW,
  };
}

/** Refusals on the Messages wire leave in Anthropic's error shape. */
async function answerAnthropic(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof AnthropicRequestError) return anthropicErrorResponse(error);
    throw error;
  }
}

/** Refusals leave in OpenAI's error shape, which the SDK maps to its error classes. */
async function answer(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof ModelRequestError) return errorResponse(error);
    throw error;
  }
}
