/**
 * An optional JSON file of the operator's in the config home (`image_prep.json`,
 * `escalation.json`, `host_rules.json`, `records.json`, `budget.json`, `prices.json`, …): absent
 * means "not configured", while a file that cannot be read or is not JSON refuses with one line
 * naming it and the fix (docs/configuration.md#when-a-file-is-wrong). Each caller validates the parsed value itself.
 *
 * @module
 */
import { errorMessage } from "../base/error_text.ts";
import { readBytes } from "../base/read_files.ts";
import type * as z from "../base/zod.ts";
import { ConfigError } from "./errors.ts";

/** The file was not there: the caller's "not configured" applies. */
export const ABSENT: unique symbol = Symbol("absent");

/** How the refusals end: what deleting the file would do, e.g. "switch escalation off". */
export interface OptionalFileFix {
  /** Completes "or delete it to …" in the unreadable and not-JSON refusals. */
  readonly deleteTo: string;
  /** Replaces the not-JSON refusal's fix, when the file's shape says more than "delete it". */
  readonly notJsonFix?: string;
}

/**
 * The parsed JSON of `path`, or {@link ABSENT} when there is no such file.
 * @throws {ConfigError} naming `path` and the fix when it is unreadable, not UTF-8 or not JSON.
 */
export async function readOptionalJson(
  path: string,
  fix: OptionalFileFix,
): Promise<unknown | typeof ABSENT> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await readBytes(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ABSENT;
    throw refuseFile(
      path,
      `${path} could not be read: ${errorMessage(error)}. Fix: make it a readable UTF-8 file, ` +
        `or delete it to ${fix.deleteTo}.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refuseFile(
      path,
      `${path} is not valid JSON: ${errorMessage(error)}. ` +
        (fix.notJsonFix ?? `Fix: correct the syntax, or delete the file to ${fix.deleteTo}.`),
    );
  }
}

/** A refusal of the config-home file `path` (the error names the file as its variable). */
export function refuseFile(path: string, message: string): ConfigError {
  return new ConfigError({ variable: path, message });
}

/** Where a file's value first fails its schema, for the refusal sentence to name. */
export interface FirstProblem {
  readonly issue: z.core.$ZodIssue;
  /** The key path; for an unknown key, the key itself rather than its object. */
  readonly path: readonly PropertyKey[];
  /** `path` dotted, e.g. `triggers.gate_refused_twice`. */
  readonly key: string;
}

/** The first schema issue of a config file's value, located (see {@link FirstProblem}). */
export function firstProblem(
  error: { readonly issues: readonly z.core.$ZodIssue[] },
): FirstProblem {
  const issue = error.issues[0];
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  return { issue, path, key: path.map(String).join(".") };
}
