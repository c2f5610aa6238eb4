/**
 * The production permission set as explicit `deno` flags. The set itself is defined once, as
 * `permissions.harness` in deno.json; this module turns it into `--allow-*` / `--deny-*` flags so
 * the paths that run the harness in production (the bundle's `harness` launcher, `deno compile`)
 * can pass it without `-P=harness`. Deno 2.9 prints "Permissions in the config file is an
 * experimental feature" on every `-P` run, which would put a line that is not the harness's into
 * every wake's journal (docs/operating.md#quiet-output). The deno.json tasks, run by hand from
 * source, name the set instead ({@link HARNESS_TASKS}).
 *
 *   deno run -A deploy/permissions.ts --print    # one flag per line (compile.sh reads this)
 *
 * tests/deploy/permissions.test.ts proves the tasks name the set and run quietly.
 */

/** One permission's config value: on, off, a list, or an allow/deny pair. */
export type PermissionValue =
  | boolean
  | readonly string[]
  | { readonly allow?: boolean | readonly string[]; readonly deny?: boolean | readonly string[] };

/** A deno.json permission set (`permissions.<name>`). */
export type PermissionSet = Readonly<Record<string, PermissionValue>>;

// Deno's permission names in the order its help lists them, so the flags read the same way
// every time they are generated; a name outside this list is refused rather than guessed.
const NAMES = ["read", "write", "net", "env", "sys", "run", "ffi", "import"] as const;

function listFlag(kind: "allow" | "deny", name: string, value: boolean | readonly string[]) {
  if (value === true) return [`--${kind}-${name}`];
  if (value === false) return [];
  if (value.length === 0) return [];
  return [`--${kind}-${name}=${value.join(",")}`];
}

/**
 * The flags that grant exactly `set`: `true` ⇒ `--allow-x`, a list ⇒ `--allow-x=a,b`, an object
 * ⇒ its `allow` then its `deny` (`--deny-x=…`). Deterministic: names in Deno's order.
 * @throws {Error} naming a permission this module does not know, so a new one is not dropped.
 */
export function permissionFlags(set: PermissionSet): string[] {
  const unknown = Object.keys(set).filter((name) => !(NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `deno.json permissions.harness has unknown permission(s): ${unknown.join(", ")}`,
    );
  }
  const flags: string[] = [];
  for (const name of NAMES) {
    const value = set[name];
    if (value === undefined) continue;
    if (typeof value === "boolean" || Array.isArray(value)) {
      flags.push(...listFlag("allow", name, value as boolean | readonly string[]));
      continue;
    }
    const pair = value as Exclude<PermissionValue, boolean | readonly string[]>;
    if (pair.allow !== undefined) flags.push(...listFlag("allow", name, pair.allow));
    if (pair.deny !== undefined) flags.push(...listFlag("deny", name, pair.deny));
  }
  return flags;
}

/** A flag quoted for a deno task or sh command line (`[` in an IPv6 entry is a glob). */
export function shellQuote(flag: string): string {
  return /^[A-Za-z0-9_=,./:-]+$/.test(flag) ? flag : `'${flag.replaceAll("'", `'\\''`)}'`;
}

/**
 * The deno.json tasks that run the harness, and the `main.ts` arguments each passes. A task
 * names the set (`-P=harness`) instead of spelling it out: `deno task` echoes the command it
 * runs, and the flags would be an ~880-character echo of the deny list on every run. `--quiet`
 * drops Deno's notice that config-file permissions are experimental (and its download
 * progress); the harness's own output is not Deno's and is unaffected.
 */
export const HARNESS_TASKS: Readonly<Record<string, string>> = {
  harness: "main.ts",
  sandbox: "main.ts sandbox",
  demo: "main.ts demo",
  playground: "main.ts playground",
};

/** The command a harness task runs: `deno run -P=harness --quiet <rest>`. */
export function harnessTaskCommand(rest: string): string {
  return `deno run -P=harness --quiet ${rest}`;
}

interface DenoConfig {
  permissions?: { harness?: PermissionSet };
}

/** Reads deno.json at `path` and returns the harness set (refusing a config without one). */
export function harnessSet(config: DenoConfig, path = "deno.json"): PermissionSet {
  const set = config.permissions?.harness;
  if (!set) throw new Error(`${path} has no permissions.harness set.`);
  return set;
}

if (import.meta.main) {
  const path = new URL("../deno.json", import.meta.url);
  const config = JSON.parse(await Deno.readTextFile(path)) as DenoConfig;
  const write = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
  if ((Deno.args[0] ?? "--print") !== "--print") {
    write("usage: deno run -A deploy/permissions.ts [--print]");
    Deno.exit(2);
  }
  for (const flag of permissionFlags(harnessSet(config))) write(flag);
}
