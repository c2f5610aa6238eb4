/**
 * Webhooks: endpoint reads and verbs (enable, disable, rotate), event reads, and the
 * unauthenticated ingest `POST /webhooks/{token}` where outside senders deliver.
 */
import { transaction } from "../shared/db.ts";
import { json, readBody, type RequestContext, type RouteTable } from "../shared/http.ts";
import { notFound, Problem } from "../shared/problem.ts";
import { findTimeline, timelineLocked, viewableItem } from "../shared/access.ts";
import { itemJson } from "../shared/shapes.ts";
import { type ItemRow, nowIso, row } from "../shared/state.ts";
import { uuid7 } from "../shared/uuid7.ts";
import { listItems } from "./items.ts";
import { uuidFilter } from "../shared/pagination.ts";

/** Registers the webhook routes. */
export function webhookRoutes(table: RouteTable): void {
  table.authed(
    "GET",
    "/webhook_endpoints",
    (ctx) =>
      listItems(ctx, "webhook_endpoint", "webhook_endpoints", {
        timeline: uuidFilter(ctx.url, "timeline"),
      }),
  );

  table.authed("GET", "/webhook_endpoints/:uuid", (ctx) => {
    const { item } = viewableItem(ctx.state, ctx.user, "webhook_endpoint", ctx.params.uuid);
    return json(200, { webhook_endpoint: itemJson(ctx.state, item) });
  });

  const verb = (
    method: string,
    path: string,
    change: (item: ItemRow) => Partial<Pick<ItemRow, "enabled" | "ingest_token">>,
  ) =>
    table.authed(method, path, (ctx) => {
      const { item } = viewableItem(ctx.state, ctx.user, "webhook_endpoint", ctx.params.uuid);
      const next = { ...item, ...change(item) };
      if (next.enabled !== item.enabled || next.ingest_token !== item.ingest_token) {
        next.updated_at = nowIso(ctx.state);
        ctx.state.db.prepare(
          "UPDATE items SET enabled = ?, ingest_token = ?, updated_at = ? WHERE uuid = ?",
        ).run(next.enabled, next.ingest_token, next.updated_at, item.uuid);
      }
      return json(200, { webhook_endpoint: itemJson(ctx.state, next) });
    });
  verb("POST", "/webhook_endpoints/:uuid/enablement", () => ({ enabled: 1 }));
  // Disabling answers 200 with the endpoint (not 204), as the platform does.
  verb("DELETE", "/webhook_endpoints/:uuid/enablement", () => ({ enabled: 0 }));
  // A new ingest URL; the old one dies at once, the uuid and the history stay.
  verb("POST", "/webhook_endpoints/:uuid/rotation", () => ({ ingest_token: crypto.randomUUID() }));

  table.authed(
    "GET",
    "/webhook_events",
    (ctx) =>
      listItems(ctx, "webhook_event", "webhook_events", {
        timeline: uuidFilter(ctx.url, "timeline"),
        endpoint: uuidFilter(ctx.url, "endpoint"),
      }),
  );

  table.authed("GET", "/webhook_events/:uuid", (ctx) => {
    const { item } = viewableItem(ctx.state, ctx.user, "webhook_event", ctx.params.uuid);
    return json(200, { webhook_event: itemJson(ctx.state, item) });
  });

  table.public("POST", "/webhooks/:token", ingest, { body: "webhookBytes" });
}

function endpointByToken(ctx: RequestContext, token: string): ItemRow | undefined {
  return row<ItemRow>(
    ctx.state.db.prepare(
      "SELECT * FROM items WHERE kind = 'webhook_endpoint' AND ingest_token = ?",
    ).get(token),
  );
}

/** One delivery from an outside sender becomes one event. */
async function ingest(ctx: RequestContext): Promise<Response> {
  const { state } = ctx;
  const token = ctx.params.token;
  const gate = (endpoint: ItemRow | undefined): ItemRow => {
    // An unknown token and a rotated-away one look the same: the URL is the credential.
    if (!endpoint) throw notFound("webhook endpoint");
    if (!endpoint.enabled) {
      throw new Problem(410, "endpoint_disabled", "This webhook endpoint is disabled.");
    }
    if (findTimeline(state, endpoint.timeline_uuid)?.locked) throw timelineLocked();
    return endpoint;
  };
  gate(endpointByToken(ctx, token));
  const bytes = await readBody(ctx.req, state.limits.webhookBytes);
  let payload: string;
  try {
    payload = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Problem(415, "binary_payload", "Webhook payloads must be text (UTF-8).");
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of ctx.req.headers) headers[titleCase(name)] = value;
  const event = transaction(state.db, () => {
    const endpoint = gate(endpointByToken(ctx, token));
    const now = nowIso(state);
    const item: ItemRow = {
      uuid: uuid7(),
      kind: "webhook_event",
      timeline_uuid: endpoint.timeline_uuid,
      user_uuid: null,
      created_at: now,
      updated_at: now,
      content: JSON.stringify({
        content_type: ctx.req.headers.get("content-type"),
        headers,
        payload,
        ingest_token_at_receipt: token,
      }),
      status: null,
      activate_at: null,
      endpoint_uuid: endpoint.uuid,
      ingest_token: null,
      enabled: null,
    };
    state.db.prepare(
      `INSERT INTO items (uuid, kind, timeline_uuid, user_uuid, created_at, updated_at, content,
         endpoint_uuid) VALUES (?, 'webhook_event', ?, NULL, ?, ?, ?, ?)`,
    ).run(item.uuid, item.timeline_uuid, now, now, item.content, item.endpoint_uuid);
    return item;
  });
  state.events.emit({
    event: "webhook_event.received",
    timeline: event.timeline_uuid,
    item: event.uuid,
    actor: null,
    at: event.created_at,
  });
  return json(201, { received: true, uuid: event.uuid });
}

/** `x-github-delivery` → `X-Github-Delivery`: the platform's header-name canonical form. */
export function titleCase(name: string): string {
  return name.split("-").map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join("-");
}
