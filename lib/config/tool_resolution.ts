/**
 * Tool resolution (docs/configuration.md#tool-plugin-files, docs/tools.md#the-shipped-stems, docs/security.md#the-policy): which plugins activate for a config, and
 * why every other one did not. Pure — every input is an argument — so the wake, `harness
 * resolve` and tests share one model of "what wins". It returns names and options, not tool
 * instances: the wake builds its registry from {@link ToolResolution.activeTools}.
 *
 * Order of the gates: grant (opt-in) → provider relevance → parse → requirements → ownership
 * (a later active plugin replaces an earlier one of the same name) → memory tools → policy →
 * availability in this runtime. Phases 3 and 4 are lib/config/tool_activation.ts; what every
 * phase reports goes into the trail of lib/config/resolution_trail.ts.
 */
import { RUNTIME_VOCABULARY, type ToolVocabulary } from "./tool_vocabulary.ts";
import { type CandidateFile, SHIPPED_STEMS, shippedPluginText, walkOverlay } from "./overlay.ts";
import {
  credentialVars,
  parsePluginFile,
  type Plugin,
  pluginOptsIn,
  pluginRelevantTo,
} from "./plugins.ts";
import { checkStems, normalizeStems } from "./stems.ts";
import {
  activate,
  type Activation,
  type ActivationInput,
  type ActiveBuiltin,
  type ActiveTool,
  assignOwners,
  optInStems,
  type Ownership,
} from "./tool_activation.ts";
import { finishStem, type SkippedTool, type StemStatus, Trail } from "./resolution_trail.ts";

export type { ActivationInput, ActiveBuiltin, ActiveTool } from "./tool_activation.ts";
export type { SkippedTool, StemState, StemStatus } from "./resolution_trail.ts";

/** The `tools/` overlay's plugin files, name → text (`null` = not installed: use the defaults). */
export interface Overlay {
  readonly files: Readonly<Record<string, string>>;
  /** Files that exist but could not be read, name → why (each becomes a broken file). */
  readonly unreadable?: Readonly<Record<string, string>>;
}

/** What to resolve: what activation reads, and where the candidate plugin files come from. */
export interface ResolveToolsInput extends ActivationInput {
  /** Powerful stems granted (defaults only; `.py` tolerated). */
  readonly optIn?: readonly string[];
  /** Restrict the defaults to exactly these stems, granting powerful ones named. */
  readonly only?: readonly string[] | null;
  /** The config home's overlay, or `null` for the embedded defaults. */
  readonly overlay: Overlay | null;
  /** The tool vocabulary (default: this runtime's). */
  readonly vocabulary?: ToolVocabulary;
}

/** The resolved tool set and its audit trail. */
export interface ToolResolution {
  /** Active function tool names after plugins + memory + policy, sorted. */
  readonly tools: readonly string[];
  /** Active built-in wire names, sorted. */
  readonly builtins: readonly string[];
  /** Active built-ins by model-facing name, sorted (what the provider adapters take). */
  readonly builtinNames: readonly string[];
  /** The function tools to build, in resolution order. */
  readonly activeTools: readonly ActiveTool[];
  /** The built-ins, in resolution order. */
  readonly activeBuiltins: readonly ActiveBuiltin[];
  /** Every name that did not activate, in resolution order, not deduplicated. */
  readonly skipped: readonly SkippedTool[];
  /** Sorted stems of the opt-in plugins owning a name, before the policy filter. */
  readonly optInTools: readonly string[];
  /** Every shipped stem (and every overlay stem), sorted by stem. */
  readonly stems: Readonly<Record<string, StemStatus>>;
  /** Stems excluded before activation ran. */
  readonly excludedStems: readonly { readonly stem: string; readonly reason: string }[];
  /** Broken plugin files. */
  readonly broken: readonly {
    readonly stem: string;
    readonly file: string;
    readonly error: string;
  }[];
  /** The brief's tool manifest: active names and notes, in resolution order. */
  readonly notes: readonly { readonly name: string; readonly note: string | null }[];
  /** The brief's "Tool defect" lines (broken shipped defaults). */
  readonly defects: readonly string[];
  /** The brief's safety lines (policy- or runtime-refused tools). */
  readonly safetyNotices: readonly string[];
  /** ERROR log lines (broken shipped defaults). */
  readonly errors: readonly string[];
  /** WARNING log lines (soft-skipped files, refused tools). */
  readonly warnings: readonly string[];
  /** INFO log lines for names no plugin owns. */
  readonly inactive: readonly string[];
  /** Sorted env vars the candidate plugins' requirements read. */
  readonly credentialVars: readonly string[];
  /** Sorted stems of every overlay plugin file (`null` = the defaults were the source). */
  readonly overlayToolStems: readonly string[] | null;
}

const NOT_GRANTED = "powerful (opt-in) tool not granted; pass --opt-in to grant it";

/** Resolves the tool set for one configuration. Throws {@link UnknownStemError} only. */
export function resolveTools(input: ResolveToolsInput): ToolResolution {
  const vocabulary = input.vocabulary ?? RUNTIME_VOCABULARY;
  const optIn = normalizeStems(input.optIn ?? []);
  const only = input.only == null ? null : normalizeStems(input.only);
  checkStems([...optIn, ...(only ?? [])]);
  const trail = new Trail();
  const { candidates, overlayToolStems } = grantedCandidates(input, optIn, only, trail);
  const plugins = parseCandidates(input, candidates, vocabulary, trail);
  const ownership = assignOwners(input, plugins);
  const activation = activate(input, ownership.owners, vocabulary);
  attribute(plugins, ownership, activation, trail);
  const stems: Record<string, StemStatus> = {};
  for (const stem of [...trail.drafts.keys()].sort()) {
    stems[stem] = finishStem(trail.drafts.get(stem)!);
  }
  const { activeTools, activeBuiltins } = activation;
  return {
    tools: activeTools.map((tool) => tool.name).sort(),
    builtins: activeBuiltins.map((builtin) => builtin.builtin).sort(),
    builtinNames: activeBuiltins.map((builtin) => builtin.name).sort(),
    activeTools,
    activeBuiltins,
    skipped: trail.skipped,
    optInTools: optInStems(ownership.owners, vocabulary),
    stems,
    excludedStems: trail.excludedStems,
    broken: trail.broken,
    notes: activation.notes,
    defects: trail.defects,
    safetyNotices: trail.safetyNotices,
    errors: trail.errors,
    warnings: trail.warnings,
    inactive: inactiveLines(ownership),
    credentialVars: [...ownership.credentials].sort(),
    overlayToolStems,
  };
}

/**
 * Phase 1: the candidate files — the shipped defaults, or the overlay's readable files — each
 * granted (a powerful stem only when opted in) and relevant to the provider.
 */
function grantedCandidates(
  input: ResolveToolsInput,
  optIn: readonly string[],
  only: readonly string[] | null,
  trail: Trail,
): { candidates: CandidateFile[]; overlayToolStems: string[] | null } {
  const requested = new Set([...optIn, ...(only ?? [])]);
  let files: CandidateFile[];
  let overlayToolStems: string[] | null = null;
  if (input.overlay === null) {
    files = SHIPPED_STEMS.map((stem) => ({
      file: `${stem}.json`,
      stem,
      text: shippedPluginText(stem) ?? "",
      shipped: true,
    }));
  } else {
    const walk = walkOverlay(input.overlay.files);
    files = [...walk.candidates];
    overlayToolStems = [...walk.stems];
    const read = new Set(walk.candidates.map((file) => file.stem));
    for (const ignored of walk.ignored) {
      // A stem with a readable file reports that file's verdict; the extra .py is only a skip.
      if (!read.has(ignored.stem)) {
        trail.exclude(trail.draft(ignored.stem, false, true), ignored.stem, ignored.reason);
      }
      trail.skip(undefined, ignored.file, ignored.stem, ignored.reason);
      trail.warnings.push(`Skipping tool plugin file ${ignored.file}: ${ignored.reason}.`);
    }
  }
  const present = new Set(files.map((file) => file.stem));
  const candidates: CandidateFile[] = [];
  for (const file of files) {
    const powerful = pluginOptsIn(file.text);
    const granted = input.overlay !== null ||
      (only !== null ? requested.has(file.stem) : !powerful || requested.has(file.stem));
    const entry = trail.draft(file.stem, powerful, granted);
    if (!granted) trail.exclude(entry, file.stem, powerful ? NOT_GRANTED : "not in --only");
    else if (!pluginRelevantTo(file.text, input.provider)) {
      trail.exclude(entry, file.stem, `not relevant to the '${input.provider}' provider`);
    } else candidates.push(file);
  }
  if (input.overlay !== null) {
    for (const stem of SHIPPED_STEMS) {
      if (present.has(stem) || trail.drafts.has(stem)) continue;
      const entry = trail.draft(stem, pluginOptsIn(shippedPluginText(stem) ?? ""), false);
      trail.exclude(entry, stem, `no tools/${stem}.json in the config home`);
    }
  }
  return { candidates, overlayToolStems };
}

/** Phase 2: parse; a broken shipped default is a defect, a broken operator file a soft skip. */
function parseCandidates(
  input: ResolveToolsInput,
  candidates: readonly CandidateFile[],
  vocabulary: ToolVocabulary,
  trail: Trail,
): Plugin[] {
  const plugins: Plugin[] = [];
  for (const file of candidates) {
    const unreadable = file.text === "" ? input.overlay?.unreadable?.[file.file] : undefined;
    const parsed = unreadable !== undefined
      ? { ok: false as const, error: `could not be read: ${unreadable}` }
      : parsePluginFile(file.file, file.text, vocabulary);
    const entry = trail.drafts.get(file.stem);
    if (parsed.ok) {
      plugins.push(...parsed.value.plugins);
      continue;
    }
    if (entry) {
      entry.broken = file.shipped
        ? `shipped default failed to load: ${parsed.error}`
        : `failed to load: ${parsed.error}`;
    }
    trail.broken.push({ stem: file.stem, file: file.file, error: parsed.error });
    if (file.shipped) {
      trail.errors.push(
        `Shipped tool plugin ${file.file} failed to load: ${parsed.error}. This is a defect ` +
          "(a stale or damaged overlay, or a packaging bug): re-run harness install, or delete " +
          "the file to fall back to the shipped default.",
      );
      trail.defects.push(`${file.file} — failed to load: ${parsed.error}`);
      trail.skip(
        undefined,
        file.file,
        file.stem,
        `shipped default failed to load: ${parsed.error}`,
      );
    } else {
      trail.warnings.push(`Skipping tool plugin file ${file.file}: ${parsed.error}`);
      trail.skip(undefined, file.file, file.stem, parsed.error);
    }
  }
  return plugins;
}

/** Phase 5: every plugin's outcome back on its stem; the policy refusals as notices. */
function attribute(
  plugins: readonly Plugin[],
  ownership: Ownership,
  activation: Activation,
  trail: Trail,
): void {
  for (const plugin of plugins) {
    const entry = trail.drafts.get(plugin.stem);
    const reason = ownership.unmet.get(plugin) ??
      (ownership.owners.get(plugin.name) !== plugin
        ? `overridden by a later plugin claiming '${plugin.name}'`
        : activation.dropped.get(plugin));
    if (reason !== undefined) {
      // Policy refusals join the flat trail after the plugin skips, as the reference does.
      if (activation.policyDropped.has(plugin)) entry?.skipped.push({ name: plugin.name, reason });
      else trail.skip(entry, plugin.name, plugin.stem, reason);
      continue;
    }
    if (plugin.builtin !== undefined) entry?.builtins.push(plugin.builtin);
    else entry?.tools.push(plugin.name);
    for (const name of credentialVars(plugin.requires)) entry?.credentials.add(name);
  }
  for (const refused of activation.refusedNames) {
    trail.skipped.push(refused);
    const line = `Tool '${refused.name}' ${refused.reason}; not loaded.`;
    trail.safetyNotices.push(line);
    trail.warnings.push(line);
  }
}

/** Phase 6: names no plugin owns, one INFO line each, reasons de-duplicated. */
function inactiveLines(ownership: Ownership): string[] {
  const inactiveReasons = new Map<string, Set<string>>();
  for (const [plugin, reason] of ownership.unmet) {
    if (ownership.owners.has(plugin.name)) continue;
    const set = inactiveReasons.get(plugin.name) ?? new Set<string>();
    for (const part of reason.split("; ")) set.add(part);
    inactiveReasons.set(plugin.name, set);
  }
  return [...inactiveReasons].map(([name, reasons]) =>
    `Tool plugin '${name}' inactive: ${[...reasons].join("; ")}.`
  );
}
