/**
 * The four content creates (`POST /timelines/{t}/messages|assets|tasks|webhook_endpoints`) and
 * their `Idempotency-Key` replays: one record per (kind, timeline, author, key); a replay answers
 * 201 with the original record, ignores the new body and fires no second event.
 */
import { readUpload } from "../shared/assets.ts";
import { transaction } from "../shared/db.ts";
import { type AuthedContext, json, readJson, type RouteTable, validate } from "../shared/http.ts";
import { notFound, validationFailed } from "../shared/problem.ts";
import { findTimeline, timelineLocked, viewableTimeline } from "../shared/access.ts";
import { EndpointCreate, MessageCreate, TaskCreate } from "../shared/schemas.ts";
import { itemJson } from "../shared/shapes.ts";
import { type ItemKind, type ItemRow, nowIso, row, type SandboxState } from "../shared/state.ts";
import type { EventName } from "../shared/events.ts";
import { uuid7 } from "../shared/uuid7.ts";

/** What a create handler builds before the record is stored. */
interface Draft {
  content: Record<string, unknown>;
  status?: string;
  activateAt?: string;
  ingestToken?: string;
  enabled?: boolean;
  blob?: { key: string; filename: string; contentType: string; bytes: Uint8Array };
  /** Checks that need the stored state (caps); run inside the write transaction. */
  guard?: (state: SandboxState) => void;
}

/** Registers the four creates. */
export function contentRoutes(table: RouteTable): void {
  table.authed(
    "POST",
    "/timelines/:uuid/messages",
    (ctx) =>
      create(ctx, "message", "message.created", async () => {
        const body = validate(MessageCreate, await readJson(ctx));
        return { content: { body: body.message.body } };
      }),
  );

  table.authed(
    "POST",
    "/timelines/:uuid/assets",
    (ctx) =>
      create(ctx, "asset", "asset.created", async () => {
        const upload = await readUpload(ctx);
        const key = crypto.randomUUID().replaceAll("-", "");
        return {
          content: {
            description: upload.description,
            file: {
              filename: upload.filename,
              byte_size: upload.bytes.byteLength,
              content_type: upload.contentType,
              checksum: upload.checksum,
              blob_key: key,
            },
          },
          blob: {
            key,
            filename: upload.filename,
            contentType: upload.contentType,
            bytes: upload.bytes,
          },
        };
      }),
    { body: "multipartBytes" },
  );

  table.authed("POST", "/timelines/:uuid/tasks", (ctx) =>
    create(ctx, "task", null, async () => {
      const body = validate(TaskCreate, await readJson(ctx));
      const activateAt = parseInstant(body.task.activate_at);
      if (activateAt === undefined) throw validationFailed({ activate_at: ["is invalid"] });
      return {
        content: { instructions: body.task.instructions },
        status: "pending",
        activateAt,
        guard: (state) => {
          const pending = (state.db.prepare(
            `SELECT count(*) AS n FROM items WHERE kind = 'task' AND status = 'pending'
             AND timeline_uuid = ? AND user_uuid = ?`,
          ).get(ctx.params.uuid.toLowerCase(), ctx.user.uuid) as { n: number }).n;
          if (pending >= ctx.user.max_pending_tasks) {
            throw validationFailed({
              base: [`has reached the pending task limit (${ctx.user.max_pending_tasks})`],
            });
          }
        },
      };
    }));

  table.authed(
    "POST",
    "/timelines/:uuid/webhook_endpoints",
    (ctx) =>
      create(ctx, "webhook_endpoint", null, async () => {
        const body = validate(EndpointCreate, await readJson(ctx));
        return {
          content: { description: body.webhook_endpoint.description },
          ingestToken: crypto.randomUUID(),
          enabled: true,
        };
      }),
  );
}

async function create(
  ctx: AuthedContext,
  kind: ItemKind,
  event: EventName | null,
  build: () => Promise<Draft>,
): Promise<Response> {
  const { state, user } = ctx;
  // The gates run before any replay: a key cannot reach a deleted or locked timeline.
  const timeline = viewableTimeline(state, user, ctx.params.uuid);
  if (timeline.locked) throw timelineLocked();
  const key = ctx.req.headers.get("idempotency-key")?.trim() || null;
  const original = key ? replay(state, kind, timeline.uuid, user.uuid, key) : undefined;
  if (original) return json(201, { [kind]: itemJson(state, original) });

  const draft = await build();
  // Reading the body yielded; re-check everything against the state as it is now, and do the
  // replay check and the insert in one transaction so two racing requests store one record.
  const outcome = transaction(state.db, () => {
    const current = findTimeline(state, timeline.uuid);
    if (!current) throw notFound("timeline");
    if (current.locked) throw timelineLocked();
    const raced = key ? replay(state, kind, timeline.uuid, user.uuid, key) : undefined;
    if (raced) return { item: raced, fresh: false };
    draft.guard?.(state);
    const item = insert(state, kind, timeline.uuid, user.uuid, draft);
    if (key) {
      state.db.prepare(
        `INSERT INTO idempotency_keys (kind, timeline_uuid, user_uuid, key, item_uuid)
         VALUES (?, ?, ?, ?, ?)`,
      ).run(kind, timeline.uuid, user.uuid, key, item.uuid);
    }
    return { item, fresh: true };
  });
  if (outcome.fresh && event) {
    state.events.emit({
      event,
      timeline: timeline.uuid,
      item: outcome.item.uuid,
      actor: user.uuid,
      at: outcome.item.created_at,
    });
  }
  return json(201, { [kind]: itemJson(state, outcome.item) });
}

function replay(
  state: SandboxState,
  kind: ItemKind,
  timeline: string,
  user: string,
  key: string,
): ItemRow | undefined {
  return row<ItemRow>(
    state.db.prepare(
      `SELECT i.* FROM idempotency_keys k JOIN items i ON i.uuid = k.item_uuid
     WHERE k.kind = ? AND k.timeline_uuid = ? AND k.user_uuid = ? AND k.key = ?`,
    ).get(kind, timeline, user, key),
  );
}

function insert(
  state: SandboxState,
  kind: ItemKind,
  timeline: string,
  user: string,
  draft: Draft,
): ItemRow {
  const now = nowIso(state);
  const item: ItemRow = {
    uuid: uuid7(),
    kind,
    timeline_uuid: timeline,
    user_uuid: user,
    created_at: now,
    updated_at: now,
    content: JSON.stringify(draft.content),
    status: draft.status ?? null,
    activate_at: draft.activateAt ?? null,
    endpoint_uuid: null,
    ingest_token: draft.ingestToken ?? null,
    enabled: draft.enabled === undefined ? null : draft.enabled ? 1 : 0,
  };
  state.db.prepare(
    `INSERT INTO items (uuid, kind, timeline_uuid, user_uuid, created_at, updated_at, content,
       status, activate_at, endpoint_uuid, ingest_token, enabled)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    item.uuid,
    item.kind,
    item.timeline_uuid,
    item.user_uuid,
    item.created_at,
    item.updated_at,
    item.content,
    item.status,
    item.activate_at,
    item.endpoint_uuid,
    item.ingest_token,
    item.enabled,
  );
  if (draft.blob) {
    state.db.prepare(
      "INSERT INTO blobs (key, timeline_uuid, filename, content_type, bytes) VALUES (?, ?, ?, ?, ?)",
    ).run(draft.blob.key, timeline, draft.blob.filename, draft.blob.contentType, draft.blob.bytes);
  }
  return item;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO-8601 instant, normalised to `…Z` with milliseconds. A timestamp without an offset is
 * read in the account's time zone; sandbox accounts live in UTC.
 */
function parseInstant(text: string): string | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = "00", frac = "0", zone = "Z"] = m;
  const offset = zone.toUpperCase() === "Z" ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const ms = frac.padEnd(3, "0").slice(0, 3);
  const parsed = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}
