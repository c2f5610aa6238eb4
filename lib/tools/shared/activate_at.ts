/**
 * `activate_at` for the tasks tool: a relative offset (`+90m`, `+2h`, `+1d`, `+1w`, `+30s`)
 * resolved against a clock at call time, or an absolute ISO-8601 timestamp (a `Z` or an offset;
 * a timestamp with no zone is read as UTC). Either way the platform receives one absolute
 * timestamp with an explicit offset, so it never applies the account's time zone to a zoneless
 * value behind the agent's back.
 */
import { ToolRefusal } from "./relay.ts";
import { pyRepr } from "../../pycompat/repr.ts";

const RELATIVE = /^\+\s*(\d+)\s*([smhdw])$/i;
const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 604_800,
};
// Date, optional time (minutes, seconds and fraction optional), optional zone.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since the epoch; injectable so tests can pin "now". */
export type Clock = () => number;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DDTHH:MM:SS[.ffffff]±HH:MM` for wall-clock fields and an offset in minutes. */
function render(wall: Date, micros: number, offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const fraction = micros > 0 ? `.${pad(micros, 6)}` : "";
  return `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${
    pad(wall.getUTCDate())
  }T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${
    pad(wall.getUTCSeconds())
  }${fraction}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function offsetMinutesOf(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? "0");
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * Normalises `value` to an absolute timestamp with an offset. Relative offsets are UTC
 * (`+00:00`); an absolute timestamp keeps the offset it was given.
 * @throws {ToolRefusal} when the value is neither form.
 */
export function normalizeActivateAt(value: string, now: Clock): string {
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative) {
    const ms = now() + Number(relative[1]) * UNIT_SECONDS[relative[2].toLowerCase()] * 1000;
    const when = new Date(ms);
    if (Number.isNaN(when.getTime())) throw refusal(value);
    return render(when, when.getUTCMilliseconds() * 1000, 0);
  }
  const m = ISO.exec(text);
  const offset = m ? offsetMinutesOf(m[8]) : undefined;
  if (!m || offset === undefined) throw refusal(value);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? "0")
  );
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 2026-02-30 over to March; a real calendar date reads back unchanged.
  if (
    wall.getUTCFullYear() !== year || wall.getUTCMonth() !== month - 1 ||
    wall.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59
  ) throw refusal(value);
  const micros = Number((m[7] ?? "").padEnd(6, "0").slice(0, 6));
  return render(wall, micros, offset);
}

function refusal(value: string): ToolRefusal {
  return new ToolRefusal(
    `activate_at ${pyRepr(value)} is not a relative offset (like '+2h') or an ISO-8601 ` +
      "timestamp (like '2026-06-10T15:00:00Z').",
  );
}
