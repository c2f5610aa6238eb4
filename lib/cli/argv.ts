/**
 * A strict command-line parser for the subcommands' flags: long options only (plus `-h`), each a
 * string, a comma-separated list or a boolean. It exists instead of `node:util`'s `parseArgs` because loading that module
 * boots Deno's Node compatibility layer, which a short-lived `harness wake` would pay for on every
 * platform event; the rules are the same strict ones.
 *
 * - `--name value` and `--name=value` set a string option; the last occurrence wins.
 * - A list option (`--opt-in a,b`) accumulates: every occurrence adds its comma-separated items,
 *   so `--opt-in a --opt-in b` is `--opt-in a,b`. A repeated list flag never drops a value.
 * - `--flag` sets a boolean option; `--flag=value` is an error.
 * - A string option's value may not be the next flag (`--timeline --message x` is an error, so a
 *   forgotten value is never silently taken from the following flag); use `--name=-value`.
 * - Anything not starting with `-` is a positional; after `--` every word is a positional.
 * - An unknown option is an error, and names the closest known option when there is one.
 */
import { didYouMean } from "../base/suggest.ts";

/**
 * One option: a string that takes a value, a list that takes comma-separated values and
 * accumulates them over every occurrence, or a boolean that takes none.
 * The rest describes the value for shell completion (lib/cli/completions.ts); the parser does not
 * check it, since each command refuses a bad value in its own words.
 */
export interface OptionSpec {
  readonly type: "string" | "list" | "boolean";
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /**
   * The words the value may be (`day`, `week`; tool stems), completed after the flag; a function
   * when working the words out costs something, so only completion pays for it.
   */
  readonly values?: readonly string[] | (() => readonly string[]);
  /** The value names a file or a directory, so completion offers paths; else it offers none. */
  readonly completes?: "file" | "directory";
}

/** The options a command accepts, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/**
 * The parsed values: a string, a list's items (every occurrence's, in order) or a boolean per
 * option given, absent when not given.
 */
export type OptionValues<O extends OptionSpecs> = {
  -readonly [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean
    : O[K]["type"] extends "list" ? string[]
    : string;
};

/** What {@link parseArgv} found. */
export interface ParsedArgv<O extends OptionSpecs> {
  readonly values: OptionValues<O>;
  readonly positionals: string[];
}

/** A malformed command line; the message names the offending word. */
export class ArgvError extends Error {
  override name = "ArgvError";
}

/**
 * Parses `argv` against `options`.
 * @throws {ArgvError} on an unknown option, a string option without a value, or a value given to
 * a boolean option.
 */
export function parseArgv<O extends OptionSpecs>(
  argv: readonly string[],
  options: O,
): ParsedArgv<O> {
  const values: Record<string, string | string[] | boolean> = {};
  const positionals: string[] = [];
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(options)) if (spec.short) byShort.set(spec.short, name);

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      name = eq === -1 ? word.slice(2) : word.slice(2, eq);
      inline = eq === -1 ? undefined : word.slice(eq + 1);
    } else {
      const long = word.length === 2 ? byShort.get(word[1]) : undefined;
      if (long === undefined) {
        throw new ArgvError(`unknown option '${word}'.${suggestOption(word, options)}`);
      }
      name = long;
    }
    const spec = Object.hasOwn(options, name) ? options[name] : undefined;
    if (!spec) {
      const hint = suggestOption(`--${name}`, options) ||
        " (A positional argument that starts with '-' goes after '--'.)";
      throw new ArgvError(`unknown option '--${name}'.${hint}`);
    }
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new ArgvError(`option '--${name}' takes no value`);
      values[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) {
        throw new ArgvError(`option '--${name} <value>' needs a value`);
      }
      value = next;
      i++;
    }
    if (spec.type === "list") {
      const items = values[name];
      values[name] = [...(Array.isArray(items) ? items : []), ...value.split(",")];
    } else {
      values[name] = value;
    }
  }
  return { values: values as OptionValues<O>, positionals };
}

/** " Did you mean '--x'?" for the option nearest to `word`, or "". */
function suggestOption(word: string, options: OptionSpecs): string {
  return didYouMean(word, Object.keys(options).map((name) => `--${name}`));
}
