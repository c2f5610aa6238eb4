/** Webhook events (read-only) and the unauthenticated ingest that creates them. */
import * as z from "../base/zod.ts";
import type { CallOptions, Transport } from "./http.ts";
import { contentUuid, fetchPage, type ListSpec, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type WebhookEvent, WebhookEventSchema } from "./schemas.ts";

const Envelope = z.object({ webhook_event: WebhookEventSchema });

/** Filters for listing webhook events; they compose. */
export interface WebhookEventListOptions extends ListOptions {
  /** Only this timeline's events. */
  readonly timeline?: string;
  /** Only this endpoint's events. */
  readonly endpoint?: string;
}

/** Options of an ingest delivery. */
export interface IngestOptions extends CallOptions {
  /** The body's Content-Type (any is accepted). */
  readonly contentType?: string;
  /** Extra headers, e.g. a signature header; they are recorded on the event. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What an ingest answered (its body is opaque). */
export interface IngestResult {
  /** The HTTP status (201 on success). */
  readonly status: number;
  /** The response body as text; opaque. */
  readonly body: string;
}

function spec(options: WebhookEventListOptions): ListSpec<typeof WebhookEventSchema> {
  return {
    path: "/webhook_events",
    key: "webhook_events",
    item: WebhookEventSchema,
    idOf: contentUuid,
    query: { timeline: options.timeline, endpoint: options.endpoint },
  };
}

/** `/webhook_events` and `POST /webhooks/{token}`. */
export class WebhookEventsApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Walks events newest first. */
  list(options: WebhookEventListOptions = {}): Paginator<WebhookEvent> {
    return paginate(this.#t, spec(options), options);
  }

  /** One page of events. */
  page(options: WebhookEventListOptions = {}): Promise<Page<WebhookEvent>> {
    return fetchPage(this.#t, spec(options), options.before, options);
  }

  /** One event by its `content.uuid`. */
  async get(uuid: string, options: CallOptions = {}): Promise<WebhookEvent> {
    const body = await this.#t.json(
      { method: "GET", path: "/webhook_events/{uuid}", params: { uuid }, ...options },
      Envelope,
    );
    return body.webhook_event;
  }

  /**
   * Delivers a raw body to an endpoint, as an external sender would: no bearer token, body
   * sent byte for byte. `target` is the endpoint's `ingest_url` or just its token.
   */
  async ingest(
    target: string,
    body: string | Uint8Array,
    options: IngestOptions = {},
  ): Promise<IngestResult> {
    const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
    const reply = await this.#t.send({
      method: "POST",
      path: "/webhooks/{token}",
      params: { token: target },
      url: isUrl ? new URL(target) : undefined,
      secretUrl: true, // the ingest token is the credential
      raw: { body, contentType: options.contentType },
      headers: options.headers,
      auth: false,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return { status: reply.status, body: new TextDecoder().decode(reply.bytes) };
  }
}
