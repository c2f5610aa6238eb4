/** Messages: post (replay-protected), list, read. */
import * as z from "../base/zod.ts";
import { type CallOptions, type CreateOptions, type Transport } from "./http.ts";
import { contentUuid, fetchPage, type ListSpec, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { clearedFields, type ClearedText } from "./cleared.ts";
import { type Message, MessageSchema } from "./schemas.ts";

const Envelope = z.object({ message: MessageSchema });

/** Filters for listing messages. */
export interface MessageListOptions extends ListOptions {
  /** Only this timeline's messages. */
  readonly timeline?: string;
}

function spec(options: MessageListOptions): ListSpec<typeof MessageSchema> {
  return {
    path: "/messages",
    key: "messages",
    item: MessageSchema,
    idOf: contentUuid,
    query: { timeline: options.timeline },
  };
}

/** `/messages` and `POST /timelines/{uuid}/messages`. */
export class MessagesApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Posts a message the outbound gate cleared (docs/security.md#the-outbound-gate). With
   * `idempotencyKey`, a replay returns the original message.
   */
  async create(
    timeline: string,
    message: ClearedText<"message">,
    options: CreateOptions = {},
  ): Promise<Message> {
    const input = clearedFields(message, "message");
    const body = await this.#t.json({
      method: "POST",
      path: "/timelines/{uuid}/messages",
      params: { uuid: timeline },
      json: { message: { body: input.body } },
      ...options,
    }, Envelope);
    return body.message;
  }

  /** Walks messages newest first (every timeline you view, or one with `timeline`). */
  list(options: MessageListOptions = {}): Paginator<Message> {
    return paginate(this.#t, spec(options), options);
  }

  /** One page of messages. */
  page(options: MessageListOptions = {}): Promise<Page<Message>> {
    return fetchPage(this.#t, spec(options), options.before, options);
  }

  /** One message by its `content.uuid`. */
  async get(uuid: string, options: CallOptions = {}): Promise<Message> {
    const body = await this.#t.json(
      { method: "GET", path: "/messages/{uuid}", params: { uuid }, ...options },
      Envelope,
    );
    return body.message;
  }
}
