/**
 * What every handler shares: the database, the clock, the event log and the limits, plus the
 * row types as stored. One object is passed around instead of module-level singletons so two
 * sandboxes can run in one process (tests do).
 */
import type { DatabaseSync } from "node:sqlite";
import type { EventLog } from "./events.ts";

/** Body-size ceilings, in bytes. */
export interface SandboxLimits {
  /** JSON request bodies. */
  readonly jsonBytes: number;
  /** Multipart asset uploads. */
  readonly multipartBytes: number;
  /** Webhook ingest payloads (beyond it: 413 payload_too_large). */
  readonly webhookBytes: number;
}

/** The defaults: 1 MiB JSON, 25 MiB uploads, 1 MiB webhook payloads. */
export const DEFAULT_LIMITS: SandboxLimits = {
  jsonBytes: 1024 * 1024,
  multipartBytes: 25 * 1024 * 1024,
  webhookBytes: 1024 * 1024,
};

/** The state shared by every request of one sandbox. */
export interface SandboxState {
  readonly db: DatabaseSync;
  /** Milliseconds since the epoch (injectable so tests can move time). */
  now(): number;
  /** The origin clients reach this sandbox at, e.g. `http://127.0.0.1:8123`. */
  baseUrl: string;
  readonly events: EventLog;
  readonly limits: SandboxLimits;
  /** `identity-only` mimics the minimal dashboards older platforms and test fakes return. */
  readonly dashboard: "full" | "identity-only";
}

/** The current time as the platform prints it: ISO-8601 UTC with milliseconds and `Z`. */
export function nowIso(state: SandboxState): string {
  return new Date(state.now()).toISOString();
}

/** A user as stored. */
export interface UserRow {
  uuid: string;
  handle: string;
  name: string;
  kind: "human" | "ai";
  email: string | null;
  password_hash: string | null;
  roles: string;
  suspended: number;
  visible: number;
  max_timelines: number;
  max_participants: number;
  max_pending_tasks: number;
  about: string | null;
  time_zone: string;
  created_at: string;
  updated_at: string;
}

/** A credential as stored (the token itself is kept so the wake router can hand it out). */
export interface SessionRow {
  uuid: string;
  user_uuid: string;
  token: string;
  name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  kind: "api" | "web";
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A timeline as stored. */
export interface TimelineRow {
  uuid: string;
  name: string;
  owner_uuid: string;
  locked: number;
  created_at: string;
  updated_at: string;
}

/** The kinds of timeline content. */
export type ItemKind = "message" | "asset" | "task" | "webhook_endpoint" | "webhook_event";

/** One piece of timeline content as stored; `content` is the kind-specific JSON. */
export interface ItemRow {
  uuid: string;
  kind: ItemKind;
  timeline_uuid: string;
  user_uuid: string | null;
  created_at: string;
  updated_at: string;
  content: string;
  status: string | null;
  activate_at: string | null;
  endpoint_uuid: string | null;
  ingest_token: string | null;
  enabled: number | null;
}

/** Casts a node:sqlite row (a null-prototype record) to its known shape. */
export function row<T>(value: unknown): T | undefined {
  return value === undefined ? undefined : value as T;
}

/** Casts node:sqlite rows to their known shape. */
export function rows<T>(values: unknown[]): T[] {
  return values as T[];
}
