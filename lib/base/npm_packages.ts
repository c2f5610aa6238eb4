/**
 * Whether the npm packages the kit loads lazily are installed for the project using it
 * (docs/library.md#use-the-kit-from-another-project). A model SDK is imported on the first model
 * call, not at start-up, so Deno does not install it with the program's static graph: a project
 * that skipped `deno install` would fail only there, with
 * `[ERR_MODULE_NOT_FOUND] Cannot find module '…/openai/…/index.js'`. A model provider asks this
 * module about its SDK when it is constructed, so the program stops before any work, naming the
 * fix.
 *
 * The check resolves each package through this package's import map (`import.meta.resolve`, no
 * import, nothing loaded) and looks for the file it resolves to: a package not installed for the
 * project resolves to an `npm:` URL that Deno has no file for, or to a file that is not there.
 * Where it cannot tell — the bundle and a compiled binary (their packages are inlined), no read
 * permission for the npm cache (it never prompts) — it says nothing. Each package is looked for
 * once per process.
 */
import { BUNDLED } from "./lazy_import.ts";

/** The kit's npm packages are not installed for the project that imports it. */
export class PackagesNotInstalledError extends Error {
  /** Always "PackagesNotInstalledError". */
  override name = "PackagesNotInstalledError";
  /** The packages found missing, by name. */
  readonly packages: readonly string[];

  /** `packages` are the missing packages' names. */
  constructor(packages: readonly string[]) {
    super(
      `The harness kit's npm package(s) ${packages.join(", ")} are not installed for this ` +
        "project, so its first model call would fail. Run `deno install` in the project's " +
        "directory (where its deno.json is), and again after updating the harness; then start " +
        "it again (docs/library.md#use-the-kit-from-another-project).",
    );
    this.packages = packages;
  }
}

/** The package name of a specifier: `@scope/name` or `name`, without a subpath. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Whether the package `specifier` names is installed: true or false, or undefined when this
 * process cannot tell.
 */
export function packageInstalled(specifier: string): boolean | undefined {
  let resolved: string;
  try {
    resolved = import.meta.resolve(specifier);
  } catch {
    return undefined; // not mapped here: a copy of lib/ without its deno.json, or a bundle
  }
  if (resolved.startsWith("npm:")) return false;
  if (!resolved.startsWith("file:")) return undefined;
  const path = new URL(resolved);
  if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return undefined;
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? false : undefined;
  }
}

/** What each package check found, so each is looked for once per process. */
const found = new Map<string, boolean | undefined>();

/**
 * Throws when a package among `specifiers` (the npm packages a caller will load lazily) is known
 * not to be installed. Each is looked for once per process, and never from the bundle or a
 * compiled binary.
 * @throws {PackagesNotInstalledError} naming the missing packages and `deno install`.
 */
export function requireInstalled(specifiers: readonly string[]): void {
  if (BUNDLED || (Deno.build as { standalone?: boolean }).standalone === true) return;
  const missing = specifiers.filter((specifier) => {
    if (!found.has(specifier)) found.set(specifier, packageInstalled(specifier));
    return found.get(specifier) === false;
  });
  if (missing.length > 0) throw new PackagesNotInstalledError(missing.map(packageName));
}
