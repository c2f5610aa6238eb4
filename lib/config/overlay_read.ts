/**
 * Reading the `tools/` overlay from disk for a wake (docs/configuration.md#tool-plugin-files): the
 * overlay is the source only once the installer laid tools down (a `tools/` key in
 * `.manifest.json`); then `tools/` is authoritative, a missing directory meaning zero plugin files.
 * Otherwise the wake resolves the embedded defaults (`null`).
 */
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import { readDirNames, readText } from "../base/read_files.ts";
import { type Manifest, readManifest } from "./bookkeeping.ts";
import { isPluginFileName } from "./overlay.ts";
import type { Overlay } from "./tool_resolution.ts";

/** The overlay of `configHome`, or `null` when tools were never installed there. */
export async function readOverlay(
  configHome: string,
  manifest?: Manifest,
): Promise<Overlay | null> {
  manifest ??= await readManifest(configHome);
  if (!Object.keys(manifest).some((rel) => rel.startsWith("tools/"))) return null;
  const dir = join(configHome, "tools");
  let names: string[];
  try {
    names = await readDirNames(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { files: {} };
    throw error;
  }
  const files: Record<string, string> = {};
  const unreadable: Record<string, string> = {};
  for (const name of names.filter(isPluginFileName).sort()) {
    try {
      files[name] = await readText(join(dir, name));
    } catch (error) {
      // An unreadable file is a broken plugin, reported by the resolver, not a failed wake.
      if ((error as NodeJS.ErrnoException).code === "EISDIR") continue;
      files[name] = "";
      unreadable[name] = errorMessage(error);
    }
  }
  return { files, unreadable };
}
