/**
 * The production permission set as explicit `deno` flags. The set itself is defined once, as
 * `permissions.harness` in deno.json; this module turns it into `--allow-*` / `--deny-*` flags so
 * every path that runs the harness under Deno (the deno.json tasks, the bundle's `harness`
 * launcher, `deno compile`) can pass it without `-P=harness`. Deno 2.9 prints "Permissions in
 * the config file is an experimental feature" on every `-P` run, which would put a line that is
 * not the harness's into every wake's journal (docs/operating.md#quiet-output).
 *
 *   deno run -A deploy/permissions.ts --print    # one flag per line (compile.sh reads this)
 *   deno run -A deploy/permissions.ts --write    # rewrite the deno.json tasks from the set
 *   deno run -A deploy/permissions.ts --check    # exit 1 when a task has drifted from the set
 *
 * tests/deploy/permissions.test.ts proves the tasks equal the set.
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

/** The deno.json tasks that run the harness, and the `main.ts` arguments after the flags. */
export const HARNESS_TASKS: Readonly<Record<string, string>> = {
  harness: "main.ts",
  sandbox: "main.ts sandbox",
  demo: "main.ts demo",
  playground: "main.ts playground",
};

/** The command line of each harness task, generated from `set`. */
export function harnessTasks(set: PermissionSet): Record<string, string> {
  const flags = permissionFlags(set).map(shellQuote).join(" ");
  return Object.fromEntries(
    Object.entries(HARNESS_TASKS).map(([task, rest]) => [task, `deno run ${flags} ${rest}`]),
  );
}

interface DenoConfig {
  permissions?: { harness?: PermissionSet };
  tasks?: Record<string, string>;
}

/** Reads deno.json at `path` and returns the harness set (refusing a config without one). */
export function harnessSet(config: DenoConfig, path = "deno.json"): PermissionSet {
  const set = config.permissions?.harness;
  if (!set) throw new Error(`${path} has no permissions.harness set.`);
  return set;
}

if (import.meta.main) {
  const path = new URL("../deno.json", import.meta.url);
  const text = await Deno.readTextFile(path);
  const config = JSON.parse(text) as DenoConfig;
  const set = harnessSet(config);
  const mode = Deno.args[0] ?? "--print";
  const write = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
  if (mode === "--print") {
    for (const flag of permissionFlags(set)) write(flag);
  } else if (mode === "--write" || mode === "--check") {
    const wanted = harnessTasks(set);
    const drifted = Object.keys(wanted).filter((task) => config.tasks?.[task] !== wanted[task]);
    if (mode === "--check") {
      if (drifted.length > 0) {
        write(
          `deno.json task(s) ${drifted.join(", ")} differ from permissions.harness; run ` +
            "`deno run -A deploy/permissions.ts --write`.",
        );
        Deno.exit(1);
      }
    } else {
      config.tasks = { ...config.tasks, ...wanted };
      await Deno.writeTextFile(path, JSON.stringify(config, null, 2) + "\n");
      write(`deno.json: ${Object.keys(wanted).join(", ")} tasks written from permissions.harness`);
    }
  } else {
    write("usage: deno run -A deploy/permissions.ts [--print | --write | --check]");
    Deno.exit(2);
  }
}
