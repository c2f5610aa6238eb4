/**
 * `--since`/`--until` as `harness records show` and `harness replay` take them: a span back from
 * now or an ISO 8601 instant (docs/records.md#reading-what-was-said).
 */
import { parseSince } from "../home/records/drift.ts";
import { UsageError } from "./command.ts";

/** A span back from now (`7d`, `12h`, `2w`) or an ISO 8601 instant; undefined when not given. */
export function instantFlag(name: string, raw: string | undefined, now: Date): Date | undefined {
  const value = raw?.trim();
  if (value === undefined) return undefined;
  const span = parseSince(value, now);
  if (span !== undefined) return span;
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : undefined;
  if (at === undefined || Number.isNaN(at.getTime())) {
    throw new UsageError(
      `--${name} '${value}' is neither a span (<n>h, <n>d, <n>w, e.g. 7d) nor an ISO 8601 ` +
        "time (e.g. 2026-05-01T00:00:00Z)",
    );
  }
  return at;
}
