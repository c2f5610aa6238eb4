/**
 * How one environment variable's text becomes a value (docs/environment.md): the readers the
 * schema of lib/config/env.ts is built from. Each takes the raw value and returns the typed value
 * or throws a {@link Refusal} carrying the whole sentence (the variable, the value — never a
 * secret's — and what it accepts), which {@link field} turns into a zod issue; the lenient
 * readers fall back with a warning where the reference does.
 */
import { didYouMean } from "../base/suggest.ts";
import { isUuid } from "../base/uuid.ts";
import * as z from "../base/zod.ts";
import { describeRange, ENV_RANGES, inRange, type NumberRange } from "./ranges.ts";

/** The policy profiles (`HARNESS_PROFILE`). */
export type ProfileName = "locked" | "unlocked";

/** A variable refused: `message` is the whole sentence naming it and what it accepts. */
export class Refusal {
  constructor(readonly message: string) {}
}

/** The values that turn a flag off (case-insensitive, trimmed). */
export const FALSY = new Set(["0", "false", "no", "off"]);
const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** A router delivery id as the router writes it. */
export const DELIVERY_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A value quoted for an error: control characters escaped, long values cut. */
export function shown(raw: string): string {
  const escaped = JSON.stringify(raw).slice(1, -1).replaceAll("'", "\\'");
  return `'${escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped}'`;
}

/** A variable read by `read`, whose {@link Refusal} becomes a zod issue carrying its sentence. */
export function field<T>(read: (raw: string | undefined) => T) {
  return z.string().optional().transform((raw, ctx): T => {
    try {
      return read(raw);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.addIssue({ code: "custom", message: error.message });
      return z.NEVER;
    }
  });
}

/** Trimmed text; unset or blank ⇒ undefined (env files often carry `NAME=` lines). */
export const text = () => field((raw) => raw?.trim() || undefined);

/** An endpoint override: trimmed, blank ⇒ undefined, else it must be an http(s) URL. */
export const httpUrl = (name: string, example: string) =>
  field((raw) => {
    const value = raw?.trim();
    if (!value) return undefined;
    let protocol = "";
    try {
      protocol = new URL(value).protocol;
    } catch { /* refused below */ }
    if (protocol !== "http:" && protocol !== "https:") {
      throw new Refusal(`${name} must be an http(s) URL such as ${example}, got ${shown(raw!)}.`);
    }
    return value;
  });

/** A credential taken verbatim (spaces may be part of it); only empty means unset. */
export const verbatim = () => field((raw) => (raw === undefined || raw === "" ? undefined : raw));

/** The truthiness rule (docs/environment.md): only the falsy set turns a flag off; empty is not falsy. */
export const flag = (fallback: boolean) =>
  field((raw) => raw === undefined ? fallback : !FALSY.has(raw.trim().toLowerCase()));

/** A numeric variable: its range (ranges.ts), and what a special value means, if one does. */
export type RangedName = keyof typeof ENV_RANGES;

/**
 * `name`'s value read as a number inside its range, else the refusal naming the range (after
 * `lead`, the other spellings the variable takes).
 */
export function number(name: RangedName, raw: string, note?: string, lead = ""): number {
  const range: NumberRange = ENV_RANGES[name];
  const value = raw.trim();
  const parsed = (range.integer ? INT : FLOAT).test(value) ? Number(value) : Number.NaN;
  if (!inRange(parsed, range)) {
    throw new Refusal(`${name} must be ${lead}${describeRange(range, note)}, got ${shown(raw)}.`);
  }
  return parsed;
}

/** A number in its range; blank ⇒ `fallback`. */
export const ranged = <F extends number | undefined>(
  name: RangedName,
  fallback: F,
  note?: string,
) =>
  field((raw): number | F =>
    raw === undefined || raw.trim() === "" ? fallback : number(name, raw, note)
  );

/** A UUID variable: trimmed, blank ⇒ undefined, else it must be a canonical UUID. */
export const uuid = (name: string) =>
  field((raw) => {
    const value = raw?.trim();
    if (!value) return undefined;
    if (!isUuid(value)) throw new Refusal(`${name} must be a UUID, got ${shown(raw ?? "")}.`);
    return value;
  });

/**
 * `HARNESS_PROFILE`, leniently as the reference reads it: anything but `unlocked` runs locked
 * (fail-closed), and a value that is neither adds a warning with the nearest profile.
 */
export function lenientProfile(raw: string | undefined, warnings: string[]): ProfileName {
  const value = (raw ?? "").trim().toLowerCase();
  if (value !== "" && value !== "locked" && value !== "unlocked") {
    warnings.push(
      `HARNESS_PROFILE=${shown(raw ?? "")} is neither 'locked' nor 'unlocked'; ` +
        `running locked (fail-closed).${didYouMean(value, ["unlocked", "locked"])}`,
    );
  }
  return value === "unlocked" ? "unlocked" : "locked";
}

/**
 * A number of seconds read leniently, as the reference reads `HARNESS_MCP_TIMEOUT`: a value out
 * of its range must not take the wake down, so it falls back to `fallback` with a warning.
 */
export function lenientSeconds(
  name: RangedName,
  raw: string | undefined,
  fallback: number,
  warnings: string[],
): number {
  const value = (raw ?? "").trim();
  if (value === "") return fallback;
  const parsed = FLOAT.test(value) ? Number(value) : Number.NaN;
  if (inRange(parsed, ENV_RANGES[name])) return parsed;
  warnings.push(
    `${name}=${shown(value)} is not ${describeRange(ENV_RANGES[name])}; using ${fallback}.`,
  );
  return fallback;
}
