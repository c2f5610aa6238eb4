/**
 * Deterministic Idempotency-Keys. A create re-issued after a crash must carry the same key as
 * the first attempt, so the platform answers with the original record instead of a duplicate.
 * The key is an RFC 9562 version-5 UUID over `timeline:anchor:kind:ordinal` in a fixed
 * namespace, byte-identical to the keys the Python harness derives, so a box can switch
 * runtimes mid-flight.
 */
import { isUuid } from "../base/uuid.ts";

/** The namespace every harness key is derived in. */
export const IDEMPOTENCY_NAMESPACE = "9f2b0c4e-6a1d-4f7e-9c3b-8d5a2e1f0b74";

/** The four creates the platform replay-protects; nothing else is keyed. */
export const KEYED_KINDS = ["message", "asset", "task", "webhook_endpoint"] as const;

/** A create kind that carries an Idempotency-Key. */
export type KeyedKind = typeof KEYED_KINDS[number];

function uuidBytes(uuid: string): Uint8Array {
  if (!isUuid(uuid)) throw new TypeError(`Not a UUID: ${JSON.stringify(uuid)}.`);
  const hex = uuid.replace(/-/g, "");
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function formatUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

/** RFC 9562 UUIDv5: SHA-1 of namespace bytes + UTF-8 name, with version and variant bits set. */
export async function uuid5(namespace: string, name: string): Promise<string> {
  const ns = uuidBytes(namespace);
  const nameBytes = new TextEncoder().encode(name);
  const input = new Uint8Array(ns.length + nameBytes.length);
  input.set(ns);
  input.set(nameBytes, ns.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", input));
  const out = digest.slice(0, 16);
  out[6] = (out[6] & 0x0f) | 0x50;
  out[8] = (out[8] & 0x3f) | 0x80;
  return formatUuid(out);
}

/** The inputs of one key. */
export interface KeyParts {
  /** The timeline the create targets. */
  readonly timeline: string;
  /** The engaged item uuid (for a message batch, its oldest message). */
  readonly anchor: string;
  /** Which create. */
  readonly kind: KeyedKind;
  /** 1-based position among this turn's creates of that kind. */
  readonly ordinal: number;
}

/** The name hashed into a key: `timeline:anchor:kind:ordinal`. */
export function idempotencyName(parts: KeyParts): string {
  if (!(KEYED_KINDS as readonly string[]).includes(parts.kind)) {
    throw new TypeError(`Idempotency keys exist only for ${KEYED_KINDS.join(", ")}.`);
  }
  if (!Number.isInteger(parts.ordinal) || parts.ordinal < 1) {
    throw new TypeError("An idempotency ordinal is a positive integer.");
  }
  return `${parts.timeline}:${parts.anchor}:${parts.kind}:${parts.ordinal}`;
}

/** The deterministic Idempotency-Key for one create (canonical lowercase hyphenated UUID). */
export function idempotencyKey(parts: KeyParts): Promise<string> {
  return uuid5(IDEMPOTENCY_NAMESPACE, idempotencyName(parts));
}
