/**
 * Helpers for the config-home tests: a throwaway home, file reads and writes relative to it,
 * and the sha256 the manifest records.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sha256Hex } from "../../lib/install/installer.ts";

/** A fresh empty directory; the config home is `<dir>/home` (not yet created). */
export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "harness-config-"));
  return { home: join(dir, "home"), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Reads `<home>/<rel>` as text, or `undefined` when absent. */
export async function read(home: string, rel: string): Promise<string | undefined> {
  try {
    return await readFile(join(home, rel), "utf8");
  } catch {
    return undefined;
  }
}

/** Writes `<home>/<rel>`, creating directories. */
export async function write(home: string, rel: string, text: string): Promise<void> {
  await mkdir(dirname(join(home, rel)), { recursive: true });
  await writeFile(join(home, rel), text, "utf8");
}

/** Whether `<home>/<rel>` exists. */
export async function exists(home: string, rel: string): Promise<boolean> {
  try {
    await stat(join(home, rel));
    return true;
  } catch {
    return false;
  }
}

/** The parsed `.manifest.json`. */
export async function manifestOf(home: string): Promise<Record<string, string>> {
  return JSON.parse((await read(home, ".manifest.json")) ?? "{}");
}

/** Rewrites manifest entries (e.g. to simulate an older shipped default). */
export async function patchManifest(
  home: string,
  patch: Record<string, string | undefined>,
): Promise<void> {
  const manifest = await manifestOf(home);
  for (const [rel, hash] of Object.entries(patch)) {
    if (hash === undefined) delete manifest[rel];
    else manifest[rel] = hash;
  }
  await writeFile(join(home, ".manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

/** The manifest hash of a text. */
export const hashOf = (text: string): string => sha256Hex(text);
