/**
 * Tool resolution (docs/configuration.md#tool-plugin-files, docs/tools.md#the-shipped-stems, docs/security.md#the-policy): which plugins activate for a config, and
 * why every other one did not. Pure — every input is an argument — so the wake, `harness
 * resolve` and tests share one model of "what wins". It returns names and options, not tool
 * instances: the wake builds its registry from {@link ToolResolution.activeTools}.
 *
 * Order of the gates: grant (opt-in) → provider relevance → parse → requirements → claiming
 * (a later active plugin replaces an earlier one of the same name) → memory tools → policy →
 * availability in this runtime.
 */
import { closest } from "../base/suggest.ts";
import { Policy, type Profile } from "../core/policy.ts";
import { RUNTIME_VOCABULARY, type ToolVocabulary, unavailableReason } from "./tool_vocabulary.ts";
import { type CandidateFile, SHIPPED_STEMS, shippedPluginText, walkOverlay } from "./overlay.ts";
import {
  type ActivationContext,
  credentialVars,
  parsePluginFile,
  type Plugin,
  pluginOptsIn,
  pluginRelevantTo,
  unmetReasons,
} from "./plugins.ts";

/** The `tools/` overlay's plugin files, name → text (`null` = not installed: use the defaults). */
export interface Overlay {
  readonly files: Readonly<Record<string, string>>;
  /** Files that exist but could not be read, name → why (each becomes a broken file). */
  readonly unreadable?: Readonly<Record<string, string>>;
}

/** What to resolve. */
export interface ResolveToolsInput {
  /** `AI_PROVIDER`. */
  readonly provider: string;
  /** `AI_SDK`. */
  readonly sdk: string;
  /** The resolved surface. */
  readonly surface: string;
  /** The environment `env_set` / `openai_key` requirements read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Treat every credential a candidate reads as set (`harness resolve`'s default). */
  readonly assumeCredentials?: boolean;
  /** The policy profile. */
  readonly profile: Profile;
  /** Powerful stems granted (defaults only; `.py` tolerated). */
  readonly optIn?: readonly string[];
  /** Restrict the defaults to exactly these stems, granting powerful ones named. */
  readonly only?: readonly string[] | null;
  /** The config home's overlay, or `null` for the embedded defaults. */
  readonly overlay: Overlay | null;
  /** The memory provider's tool names, merged after the plugins. */
  readonly memoryTools?: readonly string[];
  /** The tool vocabulary (default: this runtime's). */
  readonly vocabulary?: ToolVocabulary;
  /** Per-tool runtime vetoes (`shell` as root); `harness resolve` deliberately passes none. */
  readonly loadRefusals?: Readonly<Record<string, string>>;
  /**
   * The host rules file when one restricts this agent (docs/security.md#host-rules): the
   * built-ins that fetch on the vendor's side, beyond the rules' reach, are then refused.
   */
  readonly hostRules?: string;
}

/**
 * Built-ins whose vendor fetches the web (or runs code that may) on its own side, where no host
 * rule can reach: refused while host rules are in force. OpenAI's `code_interpreter` runs in a
 * container without network access, so it stays.
 */
export const VENDOR_FETCHING_BUILTINS: readonly string[] = [
  "web_search",
  "x_search",
  "code_execution",
];

/** The skip reason of a vendor-fetching built-in under host rules. */
export function hostRulesReason(builtin: string, file: string): string {
  return `refused under the host rules in ${file}: the '${builtin}' built-in fetches on the ` +
    "vendor's side, where the rules cannot reach; remove its plugin, or delete the host rules " +
    "file to lift the restriction";
}

/** An active function tool for the wake to build. */
export interface ActiveTool {
  /** The model-facing name. */
  readonly name: string;
  /** The vocabulary tool to instantiate (`null` for a memory-provider tool). */
  readonly tool: string | null;
  /** Constructor options from the plugin file. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The plugin's stem (`null` for a memory-provider tool). */
  readonly stem: string | null;
  /** The brief's one-line note. */
  readonly note: string | null;
}

/** An active server-side built-in for the provider. */
export interface ActiveBuiltin {
  /** The model-facing (manifest) name, e.g. `code_execution`. */
  readonly name: string;
  /** The wire name, e.g. `code_interpreter`. */
  readonly builtin: string;
  /** The plugin's stem. */
  readonly stem: string;
  /** The brief's one-line note. */
  readonly note: string | null;
}

/** A name that did not activate. */
export interface SkippedTool {
  /** The tool name (or a file name for a broken or unreadable file). */
  readonly name: string;
  /** The stem it came from (`null` for a memory tool). */
  readonly stem: string | null;
  /** Why. */
  readonly reason: string;
}

/** A stem's verdict. */
export type StemState = "active" | "inactive" | "excluded" | "broken";

/** One stem's entry in the resolution. */
export interface StemStatus {
  /** Powerful (opt-in). */
  readonly optIn: boolean;
  /** Granted (opt-in named, or benign; in an overlay: the file is present). */
  readonly granted: boolean;
  /** The verdict. */
  readonly status: StemState;
  /** Why it is not active (`null` when active). */
  readonly reason: string | null;
  /** Function tools it contributed, sorted. */
  readonly tools: readonly string[];
  /** Built-in wire names it contributed, sorted. */
  readonly builtins: readonly string[];
  /** Credentials its contributed names depend on, sorted. */
  readonly assumesCredential: readonly string[];
  /** Its plugins that did not contribute. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

/** The resolved tool set and its audit trail. */
export interface ToolResolution {
  /** Active function tool names after plugins + memory + policy, sorted. */
  readonly tools: readonly string[];
  /** Active built-in wire names, sorted. */
  readonly builtins: readonly string[];
  /** Active built-ins by model-facing name, sorted (what the provider adapters take). */
  readonly builtinNames: readonly string[];
  /** The function tools to build, in claiming order. */
  readonly activeTools: readonly ActiveTool[];
  /** The built-ins, in claiming order. */
  readonly activeBuiltins: readonly ActiveBuiltin[];
  /** Every name that did not activate, in resolution order, not deduplicated. */
  readonly skipped: readonly SkippedTool[];
  /** Sorted stems of claimed opt-in plugins, before the policy filter. */
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
  /** INFO log lines for names no plugin claimed. */
  readonly inactive: readonly string[];
  /** Sorted env vars the candidate plugins' requirements read. */
  readonly credentialVars: readonly string[];
  /** Sorted stems of every overlay plugin file (`null` = the defaults were the source). */
  readonly overlayToolStems: readonly string[] | null;
}

/** A requested stem that names no shipped plugin: a typo in the question, always fatal. */
export class UnknownStemError extends Error {
  override name = "UnknownStemError";
}

/** Normalizes a stem list: trimmed, a trailing `.py`/`.json` dropped, blanks removed. */
export function normalizeStems(stems: Iterable<string>): string[] {
  return [...stems].map((stem) => stem.trim().replace(/\.(py|json)$/, "")).filter(Boolean);
}

/** The stems of an `--opt-in`/`--only` list (every occurrence's comma-separated items). */
export function splitStems(items: readonly string[] | undefined): string[] {
  return items === undefined ? [] : normalizeStems(items.flatMap((item) => item.split(",")));
}

/**
 * Throws {@link UnknownStemError} naming the shipped stems (and the nearest one to each unknown
 * stem) when one is unknown.
 */
export function checkStems(stems: readonly string[]): void {
  const unknown = [...new Set(stems)].filter((stem) => !SHIPPED_STEMS.includes(stem)).sort();
  if (!unknown.length) return;
  const nearest = unknown.map((stem) => [stem, closest(stem, SHIPPED_STEMS)] as const)
    .filter(([, match]) => match !== undefined)
    .map(([stem, match]) => `'${match}' for '${stem}'`);
  const hint = nearest.length ? ` Did you mean ${nearest.join(", ")}?` : "";
  throw new UnknownStemError(
    `No shipped tool plugin is named: ${unknown.join(", ")}.${hint} The shipped stems are: ${
      SHIPPED_STEMS.join(", ")
    }. (Pass the plugin file stem, e.g. 'xai_search', not a tool name it resolves to, like ` +
      "'x_search'.)",
  );
}

const NOT_GRANTED = "powerful (opt-in) tool not granted; pass --opt-in to grant it";

interface StemDraft {
  optIn: boolean;
  granted: boolean;
  excluded?: string;
  broken?: string;
  tools: string[];
  builtins: string[];
  credentials: Set<string>;
  skipped: { name: string; reason: string }[];
}

/**
 * What every phase reports into: each stem's draft status, the flat skip trail, and the operator
 * lines. One trail per resolution, so a stem's story and the flat list never disagree.
 */
class Trail {
  readonly drafts = new Map<string, StemDraft>();
  readonly skipped: SkippedTool[] = [];
  readonly excludedStems: { stem: string; reason: string }[] = [];
  readonly broken: { stem: string; file: string; error: string }[] = [];
  readonly defects: string[] = [];
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly safetyNotices: string[] = [];

  /** A fresh draft for `stem` (replacing any earlier one). */
  draft(stem: string, optIn: boolean, granted: boolean): StemDraft {
    const entry: StemDraft = {
      optIn,
      granted,
      tools: [],
      builtins: [],
      credentials: new Set(),
      skipped: [],
    };
    this.drafts.set(stem, entry);
    return entry;
  }

  exclude(entry: StemDraft, stem: string, reason: string): void {
    entry.excluded = reason;
    this.excludedStems.push({ stem, reason });
  }

  skip(entry: StemDraft | undefined, name: string, stem: string | null, reason: string): void {
    entry?.skipped.push({ name, reason });
    this.skipped.push({ name, stem, reason });
  }
}

/** Resolves the tool set for one configuration. Throws {@link UnknownStemError} only. */
export function resolveTools(input: ResolveToolsInput): ToolResolution {
  const vocabulary = input.vocabulary ?? RUNTIME_VOCABULARY;
  const optIn = normalizeStems(input.optIn ?? []);
  const only = input.only == null ? null : normalizeStems(input.only);
  checkStems([...optIn, ...(only ?? [])]);
  const trail = new Trail();
  const { candidates, overlayToolStems } = grantedCandidates(input, optIn, only, trail);
  const plugins = parseCandidates(input, candidates, vocabulary, trail);
  const claims = claimPlugins(input, plugins);
  const activation = activate(input, claims.claimed, vocabulary);
  attribute(plugins, claims, activation, trail);
  const stems: Record<string, StemStatus> = {};
  for (const stem of [...trail.drafts.keys()].sort()) stems[stem] = finish(trail.drafts.get(stem)!);
  const { activeTools, activeBuiltins } = activation;
  return {
    tools: activeTools.map((tool) => tool.name).sort(),
    builtins: activeBuiltins.map((builtin) => builtin.builtin).sort(),
    builtinNames: activeBuiltins.map((builtin) => builtin.name).sort(),
    activeTools,
    activeBuiltins,
    skipped: trail.skipped,
    optInTools: optInStems(claims.claimed, vocabulary),
    stems,
    excludedStems: trail.excludedStems,
    broken: trail.broken,
    notes: activation.notes,
    defects: trail.defects,
    safetyNotices: trail.safetyNotices,
    errors: trail.errors,
    warnings: trail.warnings,
    inactive: inactiveLines(claims),
    credentialVars: [...claims.credentials].sort(),
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

/** What phase 3 decided: which plugin claims each name, and why the others stand aside. */
interface Claims {
  /** Every credential variable any parsed plugin requires. */
  readonly credentials: ReadonlySet<string>;
  /** Plugins whose requirements are unmet, with the reasons. */
  readonly unmet: ReadonlyMap<Plugin, string>;
  /** The plugin that claims each name (a later active plugin replaces an earlier one). */
  readonly claimed: ReadonlyMap<string, Plugin>;
}

/** Phase 3: requirements and claiming. */
function claimPlugins(input: ResolveToolsInput, plugins: readonly Plugin[]): Claims {
  const credentials = new Set(plugins.flatMap((plugin) => credentialVars(plugin.requires)));
  const env: Record<string, string | undefined> = { ...input.env };
  if (input.assumeCredentials) { for (const name of credentials) env[name] = "<assumed>"; }
  const ctx: ActivationContext = {
    provider: input.provider,
    sdk: input.sdk,
    surface: input.surface,
    env,
  };
  const unmet = new Map<Plugin, string>();
  const claimed = new Map<string, Plugin>();
  for (const plugin of plugins) {
    const reasons = unmetReasons(plugin.requires, ctx);
    if (reasons.length) unmet.set(plugin, reasons.join("; "));
    else claimed.set(plugin.name, plugin);
  }
  return { credentials, unmet, claimed };
}

/** The opt-in stems that contribute an available tool or built-in. */
function optInStems(claimed: ReadonlyMap<string, Plugin>, vocabulary: ToolVocabulary): string[] {
  return [
    ...new Set(
      [...claimed.values()].filter((plugin) => plugin.optIn && available(plugin, vocabulary))
        .map((plugin) => plugin.stem),
    ),
  ].sort();
}

/** What phase 4 activated, and what it dropped. */
interface Activation {
  readonly activeTools: ActiveTool[];
  readonly activeBuiltins: ActiveBuiltin[];
  readonly notes: { name: string; note: string | null }[];
  /** Claimed plugins not activated, with the reason. */
  readonly dropped: ReadonlyMap<Plugin, string>;
  /** The subset of {@link dropped} the policy refused. */
  readonly policyDropped: ReadonlySet<Plugin>;
  /** Every name the policy refused (plugins and memory tools), in order. */
  readonly refusedNames: readonly { name: string; stem: string | null; reason: string }[];
}

/** Phase 4: the claimed plugins, then the memory tools, through the policy and the vocabulary. */
function activate(
  input: ResolveToolsInput,
  claimed: ReadonlyMap<string, Plugin>,
  vocabulary: ToolVocabulary,
): Activation {
  const policy = input.profile === "unlocked" ? Policy.unlocked() : Policy.locked();
  const activeTools: ActiveTool[] = [];
  const activeBuiltins: ActiveBuiltin[] = [];
  const notes: { name: string; note: string | null }[] = [];
  const dropped = new Map<Plugin, string>();
  const policyDropped = new Set<Plugin>();
  const refuse = (name: string): string | undefined => {
    const capabilities = vocabulary.tools[name]?.capabilities ?? [];
    const veto = input.loadRefusals?.[name];
    return policy.refusal({
      requires: new Set(capabilities),
      ...(veto ? { loadRefusal: () => veto } : {}),
    });
  };
  const refusedNames: { name: string; stem: string | null; reason: string }[] = [];
  for (const plugin of claimed.values()) {
    if (plugin.builtin !== undefined) {
      if (!vocabulary.builtins[plugin.builtin]) {
        dropped.set(plugin, unavailableReason("builtin", plugin.builtin));
        continue;
      }
      if (input.hostRules !== undefined && VENDOR_FETCHING_BUILTINS.includes(plugin.builtin)) {
        dropped.set(plugin, hostRulesReason(plugin.builtin, input.hostRules));
        continue;
      }
      activeBuiltins.push({
        name: plugin.name,
        builtin: plugin.builtin,
        stem: plugin.stem,
        note: plugin.note,
      });
      notes.push({ name: plugin.name, note: plugin.note });
      continue;
    }
    const tool = plugin.tool ?? plugin.name;
    const refusal = refuse(tool);
    if (refusal) {
      dropped.set(plugin, refusal);
      policyDropped.add(plugin);
      refusedNames.push({ name: plugin.name, stem: plugin.stem, reason: refusal });
      continue;
    }
    if (!vocabulary.tools[tool]?.implemented) {
      dropped.set(plugin, unavailableReason("tool", tool));
      continue;
    }
    activeTools.push({
      name: plugin.name,
      tool,
      options: plugin.options,
      stem: plugin.stem,
      note: plugin.note,
    });
    notes.push({ name: plugin.name, note: plugin.note });
  }
  const taken = new Set([...claimed.keys()]);
  for (const name of input.memoryTools ?? []) {
    if (taken.has(name)) continue;
    taken.add(name);
    const refusal = refuse(name);
    if (refusal) {
      refusedNames.push({ name, stem: null, reason: refusal });
      continue;
    }
    activeTools.push({ name, tool: null, options: {}, stem: null, note: null });
    notes.push({ name, note: null });
  }
  return { activeTools, activeBuiltins, notes, dropped, policyDropped, refusedNames };
}

/** Phase 5: every plugin's outcome back on its stem; the policy refusals as notices. */
function attribute(
  plugins: readonly Plugin[],
  claims: Claims,
  activation: Activation,
  trail: Trail,
): void {
  for (const plugin of plugins) {
    const entry = trail.drafts.get(plugin.stem);
    const reason = claims.unmet.get(plugin) ??
      (claims.claimed.get(plugin.name) !== plugin
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

/** Phase 6: names no plugin claimed, one INFO line each, reasons de-duplicated. */
function inactiveLines(claims: Claims): string[] {
  const inactiveReasons = new Map<string, Set<string>>();
  for (const [plugin, reason] of claims.unmet) {
    if (claims.claimed.has(plugin.name)) continue;
    const set = inactiveReasons.get(plugin.name) ?? new Set<string>();
    for (const part of reason.split("; ")) set.add(part);
    inactiveReasons.set(plugin.name, set);
  }
  return [...inactiveReasons].map(([name, reasons]) =>
    `Tool plugin '${name}' inactive: ${[...reasons].join("; ")}.`
  );
}

function available(plugin: Plugin, vocabulary: ToolVocabulary): boolean {
  if (plugin.builtin !== undefined) return vocabulary.builtins[plugin.builtin] === true;
  return vocabulary.tools[plugin.tool ?? plugin.name]?.implemented === true;
}

function finish(draft: StemDraft): StemStatus {
  const active = draft.tools.length > 0 || draft.builtins.length > 0;
  let status: StemState;
  let reason: string | null;
  if (draft.excluded !== undefined) [status, reason] = ["excluded", draft.excluded];
  else if (draft.broken !== undefined) [status, reason] = ["broken", draft.broken];
  else if (active) [status, reason] = ["active", null];
  else {
    const reasons = [...new Set(draft.skipped.map((item) => item.reason))];
    [status, reason] = ["inactive", reasons.join("; ") || "no plugin activated"];
  }
  return {
    optIn: draft.optIn,
    granted: draft.granted,
    status,
    reason,
    tools: [...draft.tools].sort(),
    builtins: [...draft.builtins].sort(),
    assumesCredential: [...draft.credentials].sort(),
    skipped: draft.skipped,
  };
}
