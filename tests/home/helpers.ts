/** Scaffolding for the state tests: a throwaway HARNESS_HOME and a way to list what is in it. */
import { dirname, join, relative } from "node:path";

/** Runs `body` with a fresh temporary HARNESS_HOME, always removing it. */
export async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "harness-state-" });
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Every file under `root` (directories only when empty, with a trailing `/`), sorted. */
export async function tree(root: string): Promise<string[]> {
  const out: string[] = [];
  async function visit(dir: string) {
    let empty = true;
    for await (const entry of Deno.readDir(dir)) {
      empty = false;
      const path = join(dir, entry.name);
      if (entry.isDirectory) await visit(path);
      else out.push(relative(root, path));
    }
    if (empty && dir !== root) out.push(relative(root, dir) + "/");
  }
  await visit(root);
  return out.sort();
}

/** Writes `text` at `home/rel`, creating parent directories. */
export async function put(home: string, rel: string, text = ""): Promise<void> {
  const path = join(home, rel);
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** Reads `home/rel` as text. */
export function read(home: string, rel: string): Promise<string> {
  return Deno.readTextFile(join(home, rel));
}

/** A timeline uuid (the shape the platform uses). */
export const TL = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
/** Another timeline. */
export const TL2 = "0197a6b2-ffff-7e4f-8a9b-0c1d2e3f4a5b";
/** An item uuid. */
export const ITEM = "0197a6b3-0000-7000-8000-000000000001";

/**
 * Runs a child script of these tests (read, write and run granted, as a wake has them before it
 * narrows) with `args`; asserts it exited 0 and returns its stdout, trimmed.
 */
export async function runChild(script: URL, args: readonly string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      script.pathname,
      ...args,
    ],
    stderr: "inherit",
  }).output();
  if (output.code !== 0) throw new Error(`${script.pathname} exited ${output.code}`);
  return new TextDecoder().decode(output.stdout).trim();
}
