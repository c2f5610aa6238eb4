/**
 * How records look on the wire. One record has one shape everywhere (list row, subject,
 * inline timeline item), so every route serializes through here.
 */
import { findUser, isAdmin, parseRoles, trusts } from "./access.ts";
import { integrationFields } from "./integrations.ts";
import {
  type ItemRow,
  row,
  type SandboxState,
  type SessionRow,
  type TimelineRow,
  type UserRow,
} from "./state.ts";

/** The nested-actor form: exactly `{uuid, handle, name, kind}`. */
export interface Actor {
  /** The user's uuid. */
  uuid: string;
  /** The user's handle, without the `@`. */
  handle: string;
  /** The display name. */
  name: string;
  /** Whether a person or an agent. */
  kind: "human" | "ai";
}

/** A JSON object on its way out. */
export type JsonObject = Record<string, unknown>;

/** A user in nested-actor form. */
export function actor(user: UserRow): Actor {
  return { uuid: user.uuid, handle: user.handle, name: user.name, kind: user.kind };
}

function actorByUuid(state: SandboxState, uuid: string | null): Actor | null {
  const user = uuid ? findUser(state, uuid) : undefined;
  return user ? actor(user) : null;
}

/** The trust cluster as `viewer` sees `user`; reflexively all-true on yourself. */
export function trustOf(state: SandboxState, viewer: UserRow, user: UserRow): JsonObject {
  if (viewer.uuid === user.uuid) return { you_trust: true, trusts_you: true, mutual: true };
  const youTrust = trusts(state, viewer.uuid, user.uuid);
  const trustsYou = trusts(state, user.uuid, viewer.uuid);
  return { you_trust: youTrust, trusts_you: trustsYou, mutual: youTrust && trustsYou };
}

/** A directory row: base identity plus trust, nothing else. */
export function userListRow(state: SandboxState, viewer: UserRow, user: UserRow): JsonObject {
  return { ...actor(user), trust: trustOf(state, viewer, user) };
}

/**
 * The subject form, with access tiers: the trusted-peer cluster for yourself, admins and users
 * who trust you; the self/admin cluster for yourself and admins. Fields outside the viewer's
 * tier are absent, not null.
 */
export function userSubject(state: SandboxState, viewer: UserRow, user: UserRow): JsonObject {
  const self = viewer.uuid === user.uuid;
  const admin = isAdmin(viewer);
  const out = userListRow(state, viewer, user);
  if (self || admin || trusts(state, user.uuid, viewer.uuid)) {
    Object.assign(out, {
      suspended: user.suspended === 1,
      max_timelines: user.max_timelines,
      max_participants: user.max_participants,
      max_pending_tasks: user.max_pending_tasks,
      about: user.about,
      time_zone: user.time_zone,
      roles: parseRoles(user),
    });
  }
  if (self || admin) {
    Object.assign(out, {
      ...integrationFields(state, user.uuid),
      visible: user.visible === 1,
      created_at: user.created_at,
      updated_at: user.updated_at,
      creator: null,
    });
  }
  return out;
}

/** A timeline (without items). */
export function timelineJson(state: SandboxState, timeline: TimelineRow): JsonObject {
  const participants = state.db.prepare(
    `SELECT u.* FROM participations p JOIN users u ON u.uuid = p.user_uuid
     WHERE p.timeline_uuid = ? ORDER BY p.created_at, p.user_uuid`,
  ).all(timeline.uuid) as unknown as UserRow[];
  return {
    uuid: timeline.uuid,
    name: timeline.name,
    locked: timeline.locked === 1,
    created_at: timeline.created_at,
    updated_at: timeline.updated_at,
    owner: actorByUuid(state, timeline.owner_uuid),
    participants: participants.map(actor),
  };
}

/** The blob URL for an asset's bytes; it is the credential, so it needs no token. */
export function blobUrl(state: SandboxState, key: string, filename: string): string {
  return `${state.baseUrl}/blobs/${key}/${encodeURIComponent(filename)}`;
}

/** The endpoint's ingest URL. */
export function ingestUrl(state: SandboxState, token: string): string {
  return `${state.baseUrl}/webhooks/${token}`;
}

/** Any timeline item in its record shape (`type`, times, `user`, `timeline`, `content`). */
export function itemJson(state: SandboxState, item: ItemRow): JsonObject {
  const stored = JSON.parse(item.content) as JsonObject;
  const base: JsonObject = {
    type: item.kind,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
  // Webhook events come from outside; they have no author.
  if (item.kind !== "webhook_event") base.user = actorByUuid(state, item.user_uuid);
  base.timeline = { uuid: item.timeline_uuid };
  switch (item.kind) {
    case "message":
      base.content = { uuid: item.uuid, body: stored.body };
      break;
    case "asset": {
      const file = stored.file as JsonObject & { blob_key: string; filename: string };
      base.content = {
        uuid: item.uuid,
        description: stored.description ?? "",
        file: {
          filename: file.filename,
          byte_size: file.byte_size,
          content_type: file.content_type,
          checksum: file.checksum,
          url: blobUrl(state, file.blob_key, file.filename),
        },
      };
      break;
    }
    case "task":
      base.content = {
        uuid: item.uuid,
        instructions: stored.instructions,
        activate_at: item.activate_at,
        status: item.status,
      };
      break;
    case "webhook_endpoint":
      base.content = {
        uuid: item.uuid,
        description: stored.description,
        enabled: item.enabled === 1,
        ingest_url: ingestUrl(state, item.ingest_token ?? ""),
        verification: {
          enabled: false,
          signature_header: "X-Signature",
          verifier: "hmac_sha256_hex",
        },
      };
      break;
    case "webhook_event": {
      const endpoint = row<ItemRow>(
        state.db.prepare("SELECT * FROM items WHERE uuid = ?").get(item.endpoint_uuid),
      );
      // Current clients read the embedded endpoint, older ones its top-level uuid: serve both.
      base.webhook_endpoint = endpoint
        ? { ...itemJson(state, endpoint), uuid: endpoint.uuid }
        : { uuid: item.endpoint_uuid };
      base.content = {
        uuid: item.uuid,
        content_type: stored.content_type,
        headers: stored.headers,
        payload: stored.payload,
        ingest_token_at_receipt: stored.ingest_token_at_receipt,
        verified_at_receipt: false,
      };
      break;
    }
  }
  return base;
}

/** A session as its owner sees it; `current` marks the credential making the request. */
export function sessionJson(session: SessionRow, currentUuid: string): JsonObject {
  return {
    uuid: session.uuid,
    name: session.name,
    ip_address: session.ip_address,
    user_agent: session.user_agent,
    created_at: session.created_at,
    last_used_at: session.last_used_at,
    kind: session.kind,
    current: session.uuid === currentUuid,
  };
}
