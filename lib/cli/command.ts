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
  /** The command's own flags; the {@link SHARED_FLAGS} are added for every command. */
  readonly options: O;
  /**
   * What `--version` prints for this command: `sdk` (default) is the drift-guard line
   * `<name> <version> · <sdk> SDK <version>`, `bare` is `<name> <version>`.
   */
  readonly versionStyle?: "sdk" | "bare";
  /** Whether bare words after the flags are accepted. */
  readonly allowPositionals?: boolean;
  /** The words the first positional may be (`list`, `approve`, …), offered by completion. */
  readonly positionalWords?: readonly string[];
  /**
   * Whether the command reads the environment, and so takes `--env-file PATH` (default true);
   * false for a command whose every input is a flag (`resolve`, `completions`).
   */
  readonly readsEnvironment?: boolean;
  /** Runs the command and resolves to the process exit code. */
  run(args: ParsedArgs<O>, context?: RunContext): Promise<number>;
}

/** One registered command as the dispatcher lists it: its name, one-line summary and loader. */
export interface CommandListing {
  readonly name: string;
  readonly summary: string;
  // deno-lint-ignore no-explicit-any -- each command narrows its own option types
  readonly load: () => Promise<Command<any>>;
}

/** What the dispatcher hands a command besides its arguments. */
export interface RunContext {
  /** Every registered command (what `harness completions` describes). */
  readonly commands: readonly CommandListing[];
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
 * The flags every command takes, with one meaning everywhere (docs/operating.md#shared-flags):
 * `--help`/`-h` prints the command's usage on stdout, `--version` its version line; both exit 0
 * and do nothing else.
 */
export const SHARED_FLAGS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const satisfies OptionSpecs;

/**
 * `--env-file PATH`, taken by every command that reads the environment
 * (docs/operating.md#shared-flags): the dispatcher loads the file, an agent.env, into the
 * environment before the command runs, so a hand-run command sees what a routed wake sees.
 */
export const ENV_FILE_FLAG = {
  "env-file": { type: "string", completes: "file" },
} as const satisfies OptionSpecs;

/** Every flag `command` accepts: its own, the shared ones, and `--env-file` when it applies. */
export function commandOptions(command: Command): OptionSpecs {
  return {
    ...command.options,
    ...SHARED_FLAGS,
    ...(command.readsEnvironment === false ? {} : ENV_FILE_FLAG),
  };
}

/**
 * What `harness <command> --help` prints: the command's usage, and for a command that reads the
 * environment the shared `--env-file` line, so no usage text has to repeat it.
 */
export function helpText(command: Command): string {
  if (command.readsEnvironment === false) return command.usage;
  return `${command.usage.trimEnd()}

Shared option:
  --env-file PATH  load PATH, an agent.env (KEY=VALUE lines, read as the router reads them), into
                   the environment first; its values replace inherited ones
`;
}

/** A parsed command line: what to do, the command's own arguments and the env file to load. */
export interface CommandLine<O extends OptionSpecs> {
  /** `help` for `--help`/`-h`, `version` for `--version` (help wins), else `run`. */
  readonly action: "run" | "help" | "version";
  readonly args: ParsedArgs<O>;
  /** `--env-file`'s value, when given. */
  readonly envFile?: string;
}

/**
 * Parses `argv` for `command`.
 * @throws {UsageError} on an unknown flag, a missing flag value or an unexpected positional.
 */
export function parseCommandArgs<O extends OptionSpecs>(
  command: Command<O>,
  argv: string[],
): CommandLine<O> {
  let parsed;
  try {
    parsed = parseArgv(argv, commandOptions(command as Command));
  } catch (error) {
    if (error instanceof ArgvError) throw new UsageError(error.message);
    throw error;
  }
  const { help, version, "env-file": envFile, ...own } = parsed.values as Record<
    string,
    string | boolean | undefined
  >;
  if (envFile !== undefined) nonEmptyFlag("env-file", envFile as string);
  const args = { values: own as OptionValues<O>, positionals: parsed.positionals };
  const file = envFile as string | undefined;
  if (help === true) return { action: "help", args, envFile: file };
  if (version === true) return { action: "version", args, envFile: file };
  if (!command.allowPositionals && parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument '${parsed.positionals[0]}'`);
  }
  return { action: "run", args, envFile: file };
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

/** Refuses a flag given as blank text; undefined (not given) passes. */
export function nonEmptyFlag(name: string, raw: string | undefined): void {
  if (raw !== undefined && raw.trim() === "") throw new UsageError(`--${name} is empty`);
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

let scriptName: string | undefined;

/**
 * Records the Python console-script name the process was started as (a `deploy/bin` wrapper),
 * so every command's messages speak that name; the dispatcher calls it once.
 */
export function setScriptName(name: string | undefined): void {
  scriptName = name;
}

/** How a command names itself in output: the wrapper's script name, else `harness <command>`. */
export function commandLabel(command: string): string {
  return scriptName ?? `harness ${command}`;
}
