/**
 * The canonical encoding turn records are hashed over. It is the JSON Canonicalization Scheme
 * (RFC 8785) as JavaScript gives it for free: object keys sorted by UTF-16 code units (the
 * default `Array.prototype.sort`), no whitespace anywhere, strings and numbers spelled exactly
 * as `JSON.stringify` spells them (ECMAScript number form, `-0` as `0`), hashed as UTF-8.
 * Keys whose value is `undefined` are left out, as `JSON.stringify` does; anything else JSON
 * cannot spell (`NaN`, `Infinity`, a bigint, `undefined` in an array) is refused rather than
 * silently turned into `null`, because two different inputs must never share an encoding.
 *
 * A record line on disk *is* the canonical encoding of the record, so a reader in any language
 * can re-derive `record_hash` without this code: drop the `record_hash` key, re-encode, sha256.
 */
import { sha256Hex, sha256HexAsync } from "../../base/sha256.ts";

export { sha256Hex, sha256HexAsync };

/** The `prev_hash` of a chain's first record: 64 zeros. */
export const GENESIS_HASH = "0".repeat(64);

/**
 * The canonical encoding of `value` (see the module doc).
 * @throws {TypeError} naming the path of a value JSON cannot spell.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, "$");
}

function encode(input: unknown, path: string): string {
  let value = input;
  // Honour toJSON (a Date becomes its ISO string), as JSON.stringify would.
  if (typeof value === "object" && value !== null && "toJSON" in value) {
    const toJSON = (value as { toJSON: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value);
  }
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON spelling`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        return `[${value.map((item, i) => encode(item, `${path}[${i}]`)).join(",")}]`;
      }
      const record = value as Record<string, unknown>;
      const fields = Object.keys(record).sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}:${encode(record[key], `${path}.${key}`)}`);
      return `{${fields.join(",")}}`;
    }
    default:
      throw new TypeError(`${path}: a ${typeof value} has no JSON spelling`);
  }
}

/** The sha256 hex of the canonical encoding of `value` (the `config_hash` rule). */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** {@link canonicalHash} through the native (async) digest. */
export function canonicalHashAsync(value: unknown): Promise<string> {
  return sha256HexAsync(canonicalJson(value));
}

/**
 * A record's `record_hash`: sha256 hex of the canonical encoding of the record without its
 * `record_hash` key. Every other key, known or not, is covered, so an added field is an edit.
 */
export function recordHash(record: Readonly<Record<string, unknown>>): string {
  return canonicalHash(withoutRecordHash(record));
}

/** {@link recordHash} through the native (async) digest: what the writer uses. */
export function recordHashAsync(record: Readonly<Record<string, unknown>>): Promise<string> {
  return canonicalHashAsync(withoutRecordHash(record));
}

function withoutRecordHash(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { record_hash: _ignored, ...rest } = record;
  return rest;
}
