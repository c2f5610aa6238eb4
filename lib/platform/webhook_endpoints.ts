/** Webhook endpoints: create (replay-protected), list, read, enable, disable, rotate. */
import * as z from "../base/zod.ts";
import { type CallOptions, type CreateOptions, type Transport } from "./http.ts";
import { contentUuid, fetchPage, type ListSpec, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type WebhookEndpoint, WebhookEndpointSchema } from "./schemas.ts";
import { clearedFields, type ClearedText } from "./cleared.ts";

const Envelope = z.object({ webhook_endpoint: WebhookEndpointSchema });

/** Filters for listing webhook endpoints. */
export interface WebhookEndpointListOptions extends ListOptions {
  /** Only this timeline's endpoints. */
  readonly timeline?: string;
}

function spec(options: WebhookEndpointListOptions): ListSpec<typeof WebhookEndpointSchema> {
  return {
    path: "/webhook_endpoints",
    key: "webhook_endpoints",
    item: WebhookEndpointSchema,
    idOf: contentUuid,
    query: { timeline: options.timeline },
  };
}

/** `/webhook_endpoints` and `POST /timelines/{uuid}/webhook_endpoints`. */
export class WebhookEndpointsApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Creates an endpoint whose description the outbound gate cleared. With `idempotencyKey`, a
   * replay returns the original endpoint.
   */
  async create(
    timeline: string,
    endpoint: ClearedText<"webhook_endpoint">,
    options: CreateOptions = {},
  ): Promise<WebhookEndpoint> {
    const input = clearedFields(endpoint, "webhook_endpoint");
    const body = await this.#t.json({
      method: "POST",
      path: "/timelines/{uuid}/webhook_endpoints",
      params: { uuid: timeline },
      json: { webhook_endpoint: { description: input.description } },
      ...options,
    }, Envelope);
    return body.webhook_endpoint;
  }

  /** Walks endpoints newest first. */
  list(options: WebhookEndpointListOptions = {}): Paginator<WebhookEndpoint> {
    return paginate(this.#t, spec(options), options);
  }

  /** One page of endpoints. */
  page(options: WebhookEndpointListOptions = {}): Promise<Page<WebhookEndpoint>> {
    return fetchPage(this.#t, spec(options), options.before, options);
  }

  /** One endpoint by its `content.uuid`. */
  get(uuid: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return this.#verb("GET", "/webhook_endpoints/{uuid}", uuid, options);
  }

  /** Switches an endpoint on; returns it. */
  enable(uuid: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return this.#verb("POST", "/webhook_endpoints/{uuid}/enablement", uuid, options);
  }

  /** Switches an endpoint off (ingest then answers 410); returns it. */
  disable(uuid: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return this.#verb("DELETE", "/webhook_endpoints/{uuid}/enablement", uuid, options);
  }

  /** Replaces the ingest URL (the old one dies at once); returns the endpoint with the new URL. */
  rotate(uuid: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return this.#verb("POST", "/webhook_endpoints/{uuid}/rotation", uuid, options);
  }

  async #verb(
    method: "GET" | "POST" | "DELETE",
    path: string,
    uuid: string,
    options: CallOptions,
  ): Promise<WebhookEndpoint> {
    const body = await this.#t.json({ method, path, params: { uuid }, ...options }, Envelope);
    return body.webhook_endpoint;
  }
}
