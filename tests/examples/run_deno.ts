/** Runs `deno` as its own process from the repository root, the way a reader would. */
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What one process wrote and how it exited. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `deno <args>` in {@link ROOT}, uncoloured, no stdin; `env` is added to this process's own. */
export async function runDeno(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}
