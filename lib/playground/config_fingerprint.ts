/**
 * What the agent's resolved configuration depends on, as one digest: every regular file under its
 * config home, by path and content. Equal digests mean a rebuild would resolve the same files, so
 * the studio keeps what it built from them (the tool list) until the digest changes; an edit, a
 * new file or a removed one changes it. Reading a config home's few small files costs far less
 * than resolving it again.
 */
import { join, relative } from "node:path";
import { sha256HexAsync } from "../base/sha256.ts";

/** The digest of `configHome`'s files (a missing folder has one digest of its own). */
export async function configFingerprint(configHome: string): Promise<string> {
  const entries: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let listed: Deno.DirEntry[];
    try {
      listed = await Array.fromAsync(Deno.readDir(dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of listed) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) {
        const content = await Deno.readFile(path).catch(() => null);
        const digest = content === null ? "unreadable" : await sha256HexAsync(content);
        entries.push(`${relative(configHome, path)}\0${digest}`);
      }
    }
  };
  await walk(configHome);
  return await sha256HexAsync(entries.sort().join("\n"));
}
