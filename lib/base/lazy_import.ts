/**
 * Importing a module of this package by a specifier Deno cannot see ahead of time, from source
 * and from the bundle alike.
 *
 * Deno builds, at start-up, the graph of every module reachable from the entry point — through
 * static imports AND literal dynamic ones (`import("./x.ts")`): each is read and parsed even if
 * the code path that imports it never runs. A short-lived `harness wake` that only finds nothing
 * new would pay for the engine, the tools and every other subcommand. `lazyImport` keeps such
 * modules off that graph; the caller names the type with `typeof import(...)` (type-only, so
 * `deno run` does not follow it) and the module by its package path, one of {@link LAZY_MODULES}.
 *
 * The shipped build (deploy/bundle.ts) bundles main.ts with every lazy module as its own entry
 * point, so `lib/wake/wake.ts` becomes `<bundle>/lib/wake/wake.js` beside shared chunks; this
 * module lands in one of those chunks at the bundle's root, which is how it finds that root.
 */
import type { LazyModule } from "./lazy_modules.ts";

/** Whether this code runs from the bundle (its modules are `.js`) rather than from source. */
export const BUNDLED: boolean = !import.meta.url.endsWith(".ts");

/**
 * The package root: the repository (holding main.ts and deno.json) when running from source,
 * the bundle directory (holding main.js and its deno.json) when bundled.
 */
export const PACKAGE_ROOT: URL = new URL(BUNDLED ? "./" : "../../", import.meta.url);

/** The URL of a package module, from source or from the bundle. */
export function packageModuleUrl(path: LazyModule | "main.ts"): URL {
  return new URL(BUNDLED ? path.replace(/\.ts$/, ".js") : path, PACKAGE_ROOT);
}

/** Imports the lazily loaded package module `path` (e.g. `"lib/wake/wake.ts"`). */
export function lazyImport<T>(path: LazyModule): Promise<T> {
  return import(packageModuleUrl(path).href) as Promise<T>;
}
