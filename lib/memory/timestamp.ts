/**
 * Timestamps in the exact shape Python's `datetime.now(timezone.utc).isoformat()` writes into
 * memory.db (`2026-08-18T12:00:00.123456+00:00`), so rows from either runtime look alike.
 */

/**
 * `date` as Python's UTC `isoformat()`: microseconds (from the millisecond clock, so the last
 * three digits are zero), omitted entirely when zero, as Python omits them.
 */
export function pythonIsoUtc(date: Date = new Date()): string {
  const iso = date.toISOString(); // 2026-08-18T12:00:00.123Z
  const seconds = iso.slice(0, 19);
  const millis = date.getUTCMilliseconds();
  const fraction = millis === 0 ? "" : `.${String(millis * 1000).padStart(6, "0")}`;
  return `${seconds}${fraction}+00:00`;
}
