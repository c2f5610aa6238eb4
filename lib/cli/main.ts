/**
 * The `harness` dispatcher: global flags, then one subcommand. Exit codes: the command's own,
 * 2 for any usage error (with usage on stderr), 0 for help.
 */
import { oneLineError } from "../base/error_text.ts";
import { registerSecretsFrom } from "../journal/output.ts";
import { type Io, parseCommandArgs, processIo, UsageError } from "./command.ts";
import { COMMANDS } from "./registry.ts";
import { lazyImport } from "../base/lazy_import.ts";

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
    return await dispatch(argv, io);
  } catch (error) {
    io.stderr(`harness: ${oneLineError(error)}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    if (first === "help" && rest.length > 0) return dispatch([rest[0], "--help"], io);
    (first === undefined ? io.stderr : io.stdout)(topUsage());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version") {
    // Loaded only here: the version module reads the lockfile, which no other command needs.
    const { versionLine } = await lazyImport<typeof import("./version.ts")>("lib/cli/version.ts");
    io.stdout(versionLine((name) => Deno.env.get(name)) + "\n");
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === first);
  if (!entry) {
    const what = first.startsWith("-") ? `unknown option '${first}'` : `unknown command '${first}'`;
    io.stderr(`harness: ${what}\n\n${topUsage()}`);
    return 2;
  }
  const command = await entry.load();
  try {
    const parsed = parseCommandArgs(command, rest);
    if (parsed === "help") {
      io.stdout(command.usage);
      return 0;
    }
    return await command.run(parsed);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`harness ${command.name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    throw error;
  }
}
