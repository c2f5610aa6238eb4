/**
 * Importing a module of this package by a specifier Deno cannot see ahead of time.
 *
 * Deno builds, at start-up, the graph of every module reachable from the entry point — through
 * static imports AND literal dynamic ones (`import("./x.ts")`): each is read and parsed even if
 * the code path that imports it never runs. A short-lived `harness wake` that only finds nothing
 * new would pay for the engine, the tools and every other subcommand. `lazyImport` keeps such
 * modules off that graph; the caller names the type with `typeof import(...)` (type-only, so
 * `deno run` does not follow it) and the URL with `new URL("./x.ts", import.meta.url)`.
 *
 * `deno compile` cannot see these imports either: deploy/compile.sh `--include`s every module
 * imported this way, and tests/cli/registry_compile.test.ts keeps that list complete.
 */
export function lazyImport<T>(url: URL): Promise<T> {
  return import(url.href) as Promise<T>;
}
