/**
 * Tool resolution's phases 3 and 4 (docs/configuration.md#tool-plugin-files,
 * docs/security.md#the-policy): which parsed plugin owns each tool name once the requirements are
 * judged, then which of those activate through the policy, this runtime's vocabulary and the host
 * rules, and the memory provider's tools after them. Pure, like the rest of the resolution.
 */
import { Policy, type Profile } from "../core/policy.ts";
import { type ToolVocabulary, unavailableReason } from "./tool_vocabulary.ts";
import { type ActivationContext, credentialVars, type Plugin, unmetReasons } from "./plugins.ts";

/** What activation reads of the question (lib/config/tool_resolution.ts asks the rest). */
export interface ActivationInput {
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
  /** The memory provider's tool names, merged after the plugins. */
  readonly memoryTools?: readonly string[];
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

/**
 * What phase 3 decided: which plugin owns each name, and why the others stand aside. (The
 * reference says a later plugin "claims" a name; its skip reason keeps that word.)
 */
export interface Ownership {
  /** Every credential variable any parsed plugin requires. */
  readonly credentials: ReadonlySet<string>;
  /** Plugins whose requirements are unmet, with the reasons. */
  readonly unmet: ReadonlyMap<Plugin, string>;
  /** The plugin that owns each name (a later active plugin replaces an earlier one). */
  readonly owners: ReadonlyMap<string, Plugin>;
}

/** Phase 3: requirements, and the plugin that owns each name. */
export function assignOwners(input: ActivationInput, plugins: readonly Plugin[]): Ownership {
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
  const owners = new Map<string, Plugin>();
  for (const plugin of plugins) {
    const reasons = unmetReasons(plugin.requires, ctx);
    if (reasons.length) unmet.set(plugin, reasons.join("; "));
    else owners.set(plugin.name, plugin);
  }
  return { credentials, unmet, owners };
}

/** The opt-in stems that contribute an available tool or built-in. */
export function optInStems(
  owners: ReadonlyMap<string, Plugin>,
  vocabulary: ToolVocabulary,
): string[] {
  return [
    ...new Set(
      [...owners.values()].filter((plugin) => plugin.optIn && available(plugin, vocabulary))
        .map((plugin) => plugin.stem),
    ),
  ].sort();
}

/** What phase 4 activated, and what it dropped. */
export interface Activation {
  readonly activeTools: ActiveTool[];
  readonly activeBuiltins: ActiveBuiltin[];
  readonly notes: { name: string; note: string | null }[];
  /** Owning plugins not activated, with the reason. */
  readonly dropped: ReadonlyMap<Plugin, string>;
  /** The subset of {@link dropped} the policy refused. */
  readonly policyDropped: ReadonlySet<Plugin>;
  /** Every name the policy refused (plugins and memory tools), in order. */
  readonly refusedNames: readonly { name: string; stem: string | null; reason: string }[];
}

/** Phase 4: the owning plugins, then the memory tools, through the policy and the vocabulary. */
export function activate(
  input: ActivationInput,
  owners: ReadonlyMap<string, Plugin>,
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
  for (const plugin of owners.values()) {
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
  const taken = new Set([...owners.keys()]);
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

/** Whether this runtime implements (or wires) what `plugin` enables. */
function available(plugin: Plugin, vocabulary: ToolVocabulary): boolean {
  if (plugin.builtin !== undefined) return vocabulary.builtins[plugin.builtin] === true;
  return vocabulary.tools[plugin.tool ?? plugin.name]?.implemented === true;
}
