/**
 * Runs the real `harness` CLI as a separate process with the production permission set, the way
 * an operator or the router would, and captures its output.
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What a finished CLI process produced. */
export interface CliResult {
  code: number;
  stdout: string;
  /** stderr without Deno's own notice about config-file permissions being experimental. */
  stderr: string;
}

/** Deno prints this on every run that uses a deno.json permission set; it is not ours. */
const DENO_PERMISSION_NOTICE =
  /^.*Permissions in the config file is an experimental feature.*\n?/gm;

/**
 * The Deno cache this test process uses. A child given another HOME would otherwise look for its
 * npm packages in an empty cache under that HOME and fetch them again on every run.
 */
export const DENO_DIR: string = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;

/**
 * Runs `harness <args>` to completion: from source, or with `bundle` from a directory
 * deploy/bundle.ts wrote (its main.js under its own deno.json, as the binary is built from it).
 */
export async function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    stdin?: string;
    bundle?: string;
    /** Extra `deno run` flags (e.g. `--preload`). */
    denoFlags?: string[];
  } = {},
): Promise<CliResult> {
  const entry = options.bundle
    ? ["--config", `${options.bundle}/deno.json`, `${options.bundle}/main.js`]
    : [`${ROOT}main.ts`];
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", ...options.denoFlags ?? [], ...entry, ...args],
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: "1", DENO_DIR, ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr).replace(DENO_PERMISSION_NOTICE, ""),
  };
}

/** The repository root, with a trailing slash. */
export const REPO_ROOT = ROOT;
