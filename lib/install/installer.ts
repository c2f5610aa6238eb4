/**
 * The installer and conffile-style upgrader of the config home
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default): lays the shipped
 * defaults down, refreshes the ones the operator never touched, keeps edited ones with the new
 * default beside them as `<rel>.new`, never resurrects a deleted one and never touches a file it
 * did not ship (agent.env, model_params.json, search_params.json, operator plugins).
 *
 * Python-era homes: the reference shipped `tools/<stem>.py`; this runtime ships
 * `tools/<stem>.json`. A `.py` of a shipped stem that still matches the hash the Python
 * installer recorded is unedited, so it is replaced by the `.json` (`migrated`, or `pruned` /
 * `revoked` when the stem no longer belongs). An edited one is never deleted: it stays beside
 * the new `.json` (`kept-legacy`, named in the summary). A `.py` recorded but deleted counts as
 * the stem deleted, so the `.json` is not resurrected either.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { sha256Hex } from "../base/sha256.ts";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "../base/paths.ts";
import { VERSION } from "../base/version.ts";
import { ALL_SHIPPED_DEFAULTS } from "../config/defaults.ts";
import { InstallReport } from "./install_report.ts";
import {
  type Manifest,
  readDeclaredOptIn,
  readManifest,
  writeDeclared,
  writeManifest,
  writeVersionStamp,
} from "../config/bookkeeping.ts";
import { pluginOptsIn, pluginRelevantTo, stemOf } from "../config/plugins.ts";
import { normalizeStems } from "../config/stems.ts";

export { InstallReport } from "./install_report.ts";
/** sha256 of a text's UTF-8 bytes, lower-case hex: the manifest's unit of comparison. */
export { sha256Hex };
export type { InstallAction } from "./install_report.ts";

/** What {@link install} reconciles. */
export interface InstallOptions {
  /** The resolved config home. */
  readonly configHome: string;
  /** Lay down only tool defaults relevant to this provider; `null` = all providers. */
  readonly provider: string | null;
  /** Stems to grant (`.py` suffix tolerated). */
  readonly optIn?: readonly string[];
  /** Stems whose grant to withdraw. */
  readonly revokeOptIn?: readonly string[];
  /** The version stamped into `.version` (default: this build's). */
  readonly version?: string;
  /** The shipped defaults (default: the embedded ones; tests pass a newer set). */
  readonly defaults?: Readonly<Record<string, string>>;
}

const SCAFFOLD_DIRS = ["prompts", "tools", "mcp"] as const;
const isToolRel = (rel: string) => rel.startsWith("tools/");
const relStem = (rel: string) => stemOf(rel.slice("tools/".length));

/** Scaffolds or upgrades the config home. Idempotent. Throws only on filesystem errors. */
export async function install(options: InstallOptions): Promise<InstallReport> {
  const home = options.configHome;
  const defaults = options.defaults ?? ALL_SHIPPED_DEFAULTS;
  const provider = options.provider;
  const report = new InstallReport(home);
  await mkdir(home, { recursive: true });
  for (const dir of SCAFFOLD_DIRS) await mkdir(join(home, dir), { recursive: true });

  const oldManifest = await readManifest(home);
  const manifest: Manifest = { ...oldManifest };
  const rels = Object.keys(defaults).sort();
  const toolRels = rels.filter(isToolRel);
  const powerStems = new Set(toolRels.filter((rel) => pluginOptsIn(defaults[rel])).map(relStem));
  const relevant = (rel: string) => !isToolRel(rel) || pluginRelevantTo(defaults[rel], provider);

  // Grants: declared ∪ powerful files present now ∪ named − revoked
  // (docs/configuration.md#powerful-tools-are-opt-in).
  const named = normalizeStems(options.optIn ?? []);
  const revoked = new Set(normalizeStems(options.revokeOptIn ?? []));
  const granted = new Set(await readDeclaredOptIn(home));
  for (const stem of powerStems) {
    if (await stemPresent(home, stem)) granted.add(stem);
  }
  // A stem no shipped plugin has is only warned about: recording it would declare nothing.
  const shippedStems = new Set(toolRels.map(relStem));
  for (const stem of named) if (shippedStems.has(stem)) granted.add(stem);
  for (const stem of revoked) granted.delete(stem);
  warnUnknownStems(report, named, revoked, toolRels.map(relStem), powerStems);

  const scaffold = rels.filter((rel) =>
    relevant(rel) && (!isToolRel(rel) || !powerStems.has(relStem(rel)) || granted.has(relStem(rel)))
  );
  const scaffoldStems = new Set(scaffold.filter(isToolRel).map(relStem));
  const grandfathered = scaffold.filter((rel) =>
    isToolRel(rel) && powerStems.has(relStem(rel)) && !named.includes(relStem(rel))
  );

  const legacyWas = await migratePythonEra(home, toolRels.map(relStem), {
    manifest,
    report,
    keep: (stem) => scaffoldStems.has(stem),
    revoked: (stem) => revoked.has(stem) && powerStems.has(stem),
  });

  for (const rel of scaffold) {
    const text = defaults[rel];
    const now = sha256Hex(text);
    const was = manifest[rel] ?? legacyWas.get(rel);
    manifest[rel] = now;
    const path = join(home, rel);
    const onDisk = await readBytes(path);
    const grantedRel = isToolRel(rel) && granted.has(relStem(rel));
    if (grantedRel && onDisk === undefined) {
      await writeText(path, text);
      report.actions[rel] = was === undefined ? "installed" : "restored";
    } else if (was === now) {
      report.actions[rel] = "unchanged";
    } else if (onDisk === undefined) {
      if (was === undefined) {
        await writeText(path, text);
        report.actions[rel] = "installed";
      } else report.actions[rel] = "kept-deleted";
    } else if (sha256Hex(onDisk) === now) {
      report.actions[rel] = "already-current";
    } else if (sha256Hex(onDisk) === was) {
      await writeText(path, text);
      report.actions[rel] = "refreshed";
    } else {
      await writeText(`${path}.new`, text);
      report.actions[rel] = "kept-edited";
      report.newFiles.push(rel);
    }
  }

  await revoke(home, [...revoked].filter((stem) => powerStems.has(stem)), {
    manifest,
    oldManifest,
    report,
    defaults,
  });

  for (const rel of grandfathered) {
    if (await readBytes(join(home, rel)) !== undefined) report.grandfathered.push(rel);
  }
  if (report.grandfathered.length) {
    report.warnings.push(
      `Carried forward powerful opt-in tool(s) granted on this config home: ${
        report.grandfathered.join(", ")
      }. They are off by default for new agents; retire one with --revoke-opt-in <stem>.`,
    );
  }

  if (provider !== null) await prune(home, { manifest, report, defaults, relevant });

  report.pythonPlugins.push(...await operatorPythonFiles(home, toolRels.map(relStem)));

  const files: string[] = [];
  for (const rel of Object.keys(manifest).sort()) {
    if (await readBytes(join(home, rel)) !== undefined) files.push(rel);
  }
  await writeManifest(home, manifest);
  await writeDeclared(home, {
    contract: 1,
    files,
    opt_in: [...granted].sort(),
    provider,
  });
  await writeVersionStamp(home, options.version ?? VERSION);
  return report;
}

interface MigrationState {
  readonly manifest: Manifest;
  readonly report: InstallReport;
  /** Whether the stem's `.json` belongs in this home (relevant and granted). */
  readonly keep: (stem: string) => boolean;
  /** Whether the stem's grant is being withdrawn. */
  readonly revoked: (stem: string) => boolean;
}

/**
 * Python-era `tools/<stem>.py` of shipped stems. Returns the `was` to use for a `.json` rel
 * whose stem the operator deleted under Python, so the reconcile keeps it deleted.
 */
async function migratePythonEra(
  home: string,
  stems: readonly string[],
  state: MigrationState,
): Promise<Map<string, string>> {
  const legacyWas = new Map<string, string>();
  for (const stem of stems) {
    const pyRel = `tools/${stem}.py`;
    const jsonRel = `tools/${stem}.json`;
    const recorded = state.manifest[pyRel];
    const bytes = await readBytes(join(home, pyRel));
    if (bytes === undefined) {
      if (recorded === undefined) continue;
      delete state.manifest[pyRel];
      // Deleted under Python: the stem stays deleted (unless a grant restores it).
      if (state.manifest[jsonRel] === undefined) legacyWas.set(jsonRel, `python:${recorded}`);
      continue;
    }
    if (recorded === undefined || sha256Hex(bytes) !== recorded) {
      state.report.actions[pyRel] = "kept-legacy";
      if (state.revoked(stem)) {
        state.report.warnings.push(
          `Kept your edited ${pyRel} although --revoke-opt-in ${stem} was given; delete it by ` +
            "hand if the grant should end (a present file grants the stem again).",
        );
      }
      continue;
    }
    await rm(join(home, pyRel));
    delete state.manifest[pyRel];
    state.report.actions[pyRel] = state.revoked(stem)
      ? "revoked"
      : state.keep(stem)
      ? "migrated"
      : "pruned";
  }
  return legacyWas;
}

interface RevokeState {
  readonly manifest: Manifest;
  readonly oldManifest: Manifest;
  readonly report: InstallReport;
  readonly defaults: Readonly<Record<string, string>>;
}

/** The revoke step: drop each revoked stem's entry; delete its file only when pristine. */
async function revoke(home: string, stems: readonly string[], state: RevokeState): Promise<void> {
  for (const stem of stems) {
    const rel = `tools/${stem}.json`;
    if (state.defaults[rel] === undefined) continue;
    const recorded = state.oldManifest[rel];
    delete state.manifest[rel];
    const bytes = await readBytes(join(home, rel));
    if (bytes === undefined) continue;
    const hash = sha256Hex(bytes);
    if (hash === recorded || hash === sha256Hex(state.defaults[rel])) {
      await rm(join(home, rel));
      state.report.actions[rel] = "revoked";
    } else {
      state.report.warnings.push(
        `Kept your edited ${rel} although --revoke-opt-in ${stem} was given; it is no longer ` +
          "declared, but a present file grants the stem again — delete it by hand to drop it.",
      );
    }
  }
}

interface PruneState {
  readonly manifest: Manifest;
  readonly report: InstallReport;
  readonly defaults: Readonly<Record<string, string>>;
  readonly relevant: (rel: string) => boolean;
}

/** The prune step: remove pristine defaults an earlier provider-blind install left behind. */
async function prune(home: string, state: PruneState): Promise<void> {
  for (const rel of Object.keys(state.manifest).sort()) {
    if (!isToolRel(rel) || state.defaults[rel] === undefined || state.relevant(rel)) continue;
    const bytes = await readBytes(join(home, rel));
    if (bytes === undefined) {
      delete state.manifest[rel];
      state.report.actions[rel] = "kept-deleted";
    } else if (sha256Hex(bytes) === state.manifest[rel]) {
      await rm(join(home, rel));
      delete state.manifest[rel];
      state.report.actions[rel] = "pruned";
    }
  }
}

function warnUnknownStems(
  report: InstallReport,
  named: readonly string[],
  revoked: ReadonlySet<string>,
  shipped: readonly string[],
  power: ReadonlySet<string>,
): void {
  const vocabulary = [...power].sort().join(", ");
  for (const [flag, stems] of [["--opt-in", named], ["--revoke-opt-in", [...revoked]]] as const) {
    for (const stem of stems) {
      if (power.has(stem)) continue;
      const what = shipped.includes(stem)
        ? `'${stem}' is a benign default every agent gets, not an opt-in tool`
        : `'${stem}' is not a shipped tool-plugin stem`;
      report.warnings.push(
        `${flag} ${stem} did nothing: ${what}. The opt-in stems are: ${vocabulary}.`,
      );
    }
  }
}

/** Operator-added `tools/*.py` files of unknown stems (reported, never touched). */
async function operatorPythonFiles(home: string, shipped: readonly string[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(home, "tools"));
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith(".py") && !shipped.includes(stemOf(name)))
    .sort().map((name) => `tools/${name}`);
}

async function stemPresent(home: string, stem: string): Promise<boolean> {
  for (const ext of [".json", ".py"]) {
    if (await readBytes(join(home, "tools", `${stem}${ext}`)) !== undefined) return true;
  }
  return false;
}

/** A file's bytes, or `undefined` when it does not exist (or is not a file). */
async function readBytes(path: string): Promise<Uint8Array | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Atomic, so a config file is never left half-written (the installer also runs inside a wake). */
function writeText(path: string, text: string): Promise<void> {
  return atomicWrite(path, text);
}
