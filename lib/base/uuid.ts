/** UUIDs in their canonical hyphenated form, the platform's identifiers. */

/** Matches any RFC 9562 UUID in its canonical lowercase-or-uppercase hex form. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a canonically formatted UUID. */
export function isUuid(value: unknown): boolean {
  return typeof value === "string" && UUID_PATTERN.test(value);
}
