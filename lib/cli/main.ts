/**
 * The `harness` dispatcher: global flags, then one subcommand. Exit codes: the command's own,
 * 2 for any usage error (one stderr line with a "did you mean" where one fits), 0 for help.
 */
import { oneLineError } from "../base/error_text.ts";
import { didYouMean } from "../base/suggest.ts";
import { registerSecretsFrom } from "../journal/output.ts";
import {
  type Command,
  helpText,
  type Io,
  parseCommandArgs,
  processIo,
  setScriptName,
  UsageError,
} from "./command.ts";
import { COMMANDS } from "./registry.ts";
import { lazyImport } from "../base/lazy_import.ts";

/**
 * Set by the `deploy/bin` wrappers to the Python console-script name they stand in for, so
 * `--version` and usage errors speak that name (docs/operating.md#install-the-binary).
 */
export const SCRIPT_NAME_VARIABLE = "HARNESS_SCRIPT_NAME";
const SCRIPT_NAME = /^basecradle-harness-[a-z][a-z-]*$/;

/** The top-level help, listing only implemented subcommands. */
export function topUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n");
  return `Usage: harness <command> [options]

BaseCradle Harness for Deno: an agent runtime for the BaseCradle platform.

Commands:
${rows}

Global options:
  -h, --help     show this help (or: harness <command> --help)
  --version      print the version line and exit

Run 'harness <command> --help' for a command's options.
`;
}

/**
 * Runs the CLI for `argv` and resolves to the exit code. The harness's own credentials are
 * registered with the scrubber first, so no command can print one (lib/journal/output.ts); an
 * error no command caught becomes one scrubbed line and exit 1, never a stack trace.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  registerSecretsFrom((name) => Deno.env.get(name));
  try {
    return await dispatch(argv, io, takeScriptName());
  } catch (error) {
    io.stderr(`harness: ${oneLineError(error)}\n`);
    return 1;
  }
}

/**
 * The wrapper's script name, removed from the environment so the processes a wake starts (MCP
 * servers, the shell tool) do not inherit it; undefined when not run through a wrapper.
 */
function takeScriptName(): string | undefined {
  const raw = Deno.env.get(SCRIPT_NAME_VARIABLE);
  if (raw === undefined) return undefined;
  Deno.env.delete(SCRIPT_NAME_VARIABLE);
  return SCRIPT_NAME.test(raw.trim()) ? raw.trim() : undefined;
}

async function versionText(name: string): Promise<string> {
  // Loaded only here: the version module reads the lockfile, which no other command needs.
  const { versionLine } = await lazyImport<typeof import("./version.ts")>("lib/cli/version.ts");
  return versionLine((variable) => Deno.env.get(variable), name) + "\n";
}

async function dispatch(argv: string[], io: Io, script: string | undefined): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    if (first === "help" && rest.length > 0) return dispatch([rest[0], "--help"], io, script);
    (first === undefined ? io.stderr : io.stdout)(topUsage());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version") {
    io.stdout(await versionText("harness"));
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === first);
  if (!entry) {
    const what = first.startsWith("-")
      ? `unknown option '${first}'.${didYouMean(first, ["--help", "--version"])}`
      : `unknown command '${first}'.${didYouMean(first, COMMANDS.map((c) => c.name))}`;
    io.stderr(`harness: ${what} Run 'harness --help' for the commands.\n`);
    return 2;
  }
  const command = await entry.load();
  const name = script ?? `harness ${command.name}`;
  setScriptName(script);
  try {
    const line = parseCommandArgs(command, rest);
    if (line.action === "help") {
      io.stdout(helpText(command));
      return 0;
    }
    if (line.envFile !== undefined) {
      const { loadEnvFile } = await lazyImport<typeof import("./env_file_flag.ts")>(
        "lib/cli/env_file_flag.ts",
      );
      const loaded = await loadEnvFile(line.envFile, (name, value) => Deno.env.set(name, value));
      if (!loaded.ok) {
        io.stderr(`${name}: ${loaded.error}\n`);
        return 1;
      }
      for (const warning of loaded.warnings) io.stderr(`WARNING ${warning}\n`);
      // The file's secrets are scrubbed from every line, as the inherited ones are.
      registerSecretsFrom((variable) => Deno.env.get(variable));
    }
    if (line.action === "version") {
      io.stdout(await commandVersion(command, script));
      return 0;
    }
    return await command.run(line.args, { commands: COMMANDS });
  } catch (error) {
    if (error instanceof UsageError) {
      const message = /[.?!)]$/.test(error.message) ? error.message : `${error.message}.`;
      io.stderr(`${name}: ${message} Run '${name} --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
}

async function commandVersion(command: Command, script: string | undefined): Promise<string> {
  if (command.versionStyle === "bare") {
    const { VERSION } = await import("../base/version.ts");
    return `${script ?? `harness ${command.name}`} ${VERSION}\n`;
  }
  return await versionText(script ?? "harness");
}
