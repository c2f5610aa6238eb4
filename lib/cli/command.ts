/**
 * The shape every subcommand takes, and the one place argv is parsed, so every command shares
 * the same strictness: unknown flags and stray positionals are usage errors (exit 2).
 */
import { writeStderr, writeStdout } from "../journal/output.ts";
import { ArgvError, type OptionSpecs, type OptionValues, parseArgv } from "./argv.ts";
import { isUuid } from "../base/uuid.ts";

/** A subcommand: its usage text, its flags, and what it does. */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** The word after `harness`. */
  readonly name: string;
  /** Full help, printed for `harness <name> --help` (stdout) and on usage errors (stderr). */
  readonly usage: string;
  /** The command's flags; `--help` is added for every command. */
  readonly options: O;
  /** Whether bare words after the flags are accepted. */
  readonly allowPositionals?: boolean;
  /** Runs the command and resolves to the process exit code. */
  run(args: ParsedArgs<O>): Promise<number>;
}

/** What the parser produced for a command's options. */
export type ParsedArgs<O extends OptionSpecs> = {
  values: OptionValues<O>;
  positionals: string[];
};

/** Raised for a malformed command line; the dispatcher turns it into usage on stderr and exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Output sinks, injectable so the dispatcher can be tested without a subprocess. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Writes straight to the process's streams. */
export const processIo: Io = {
  stdout: writeStdout,
  stderr: writeStderr,
};

/**
 * Parses `argv` for `command`, returning `"help"` when `--help`/`-h` was given.
 * @throws {UsageError} on an unknown flag, a missing flag value or an unexpected positional.
 */
export function parseCommandArgs<O extends OptionSpecs>(
  command: Command<O>,
  argv: string[],
): ParsedArgs<O> | "help" {
  const options = { ...command.options, help: { type: "boolean", short: "h" } } as const;
  let parsed;
  try {
    parsed = parseArgv(argv, options);
  } catch (error) {
    if (error instanceof ArgvError) throw new UsageError(error.message);
    throw error;
  }
  if (parsed.values.help === true) return "help";
  if (!command.allowPositionals && parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument '${parsed.positionals[0]}'`);
  }
  return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
}

/** Reads an integer flag, or throws a UsageError naming the flag. */
export function integerFlag(
  name: string,
  raw: string | undefined,
  { min, max }: { min: number; max: number },
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/**
 * A uuid flag: its value, else its environment fallback, trimmed and lower-cased; undefined when
 * neither is set.
 * @throws {UsageError} naming the flag when the value is not a uuid.
 */
export function uuidArg(
  flag: string,
  value: string | undefined,
  envName: string,
): string | undefined {
  const raw = (value ?? Deno.env.get(envName) ?? "").trim();
  if (!raw) return undefined;
  if (!isUuid(raw)) throw new UsageError(`--${flag} must be a uuid, got '${raw}'`);
  return raw.toLowerCase();
}
