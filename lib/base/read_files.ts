/**
 * Reads with `node:fs/promises`' exact results, without importing it on the happy path.
 *
 * Importing `node:fs/promises` costs a short-lived `harness wake` tens of milliseconds, and start-up
 * only reads a handful of small config files, most of them usually absent. So each read is tried
 * with Deno's own API first. A missing file throws Node's own `ENOENT` error shape (code, errno,
 * syscall, path and message); any other failure repeats the same operation through
 * `node:fs/promises`, so a caller sees exactly the error it always saw (its `code` — `EISDIR`,
 * `EACCES` — and its message, which can reach the operator in a ConfigError or a plugin warning).
 */

const nodeFs = () => import("node:fs/promises");

/** Node's error for a missing path (`uv` errno -2), as node:fs/promises throws it. */
function enoent(syscall: "open" | "readdir", path: string): Error {
  return Object.assign(
    new Error(`ENOENT: no such file or directory, ${syscall} '${path}'`),
    { errno: -2, code: "ENOENT", syscall, path },
  );
}

/** `readFile(path)`: the file's bytes. */
export async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw enoent("open", path);
    return await (await nodeFs()).readFile(path);
  }
}

/**
 * `readFile(path, "utf8")`: the file's text, decoded as Node decodes it — invalid sequences
 * replaced, a byte-order mark kept as U+FEFF (Deno.readTextFile would drop it).
 */
export async function readText(path: string): Promise<string> {
  try {
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await Deno.readFile(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw enoent("open", path);
    return await (await nodeFs()).readFile(path, "utf8");
  }
}

/** `readdir(path)`: the entry names (unsorted, as the OS lists them). */
export async function readDirNames(path: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw enoent("readdir", path);
    return await (await nodeFs()).readdir(path);
  }
}

/**
 * A text file whose absence is meaningful: its text as `Deno.readTextFile` decodes it, or
 * undefined when there is no such file. Any other failure (permissions, a directory) throws.
 */
export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Whether anything (a file, a folder, a link's target) is at `path`; an unreadable path counts as none. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
