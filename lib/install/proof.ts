/**
 * The config-home proof `harness verify` runs: proves the config home holds what its declaration says it holds
 * (docs/operating.md#verify-claims-and-the-log-grammar-probe). It reads `.manifest.json`,
 * `.declared.json` and `.version` against this build's shipped defaults and reports every gap as
 * a finding with a stable `check` slug and a remedy. A state in which nothing can be proven (no
 * manifest, no declaration, a declaration contract this build does not know) is a finding too:
 * unproven is never green.
 *
 * It proves presence and currency; the CLI adds the wake's own configuration load as a finding
 * (`wake-would-refuse`). Whether a present tool activates (its provider, key and the policy) is
 * `harness resolved-config`'s answer, and the report says so in `notes`.
 */
import { pathExists } from "../base/read_files.ts";
import { atomicWrite } from "../base/atomic_write.ts";
import { errorMessage } from "../base/error_text.ts";
import { isRecord } from "../base/json_object.ts";
import { join } from "../base/paths.ts";
import { readText } from "../base/read_files.ts";
import { sha256Hex } from "../base/sha256.ts";
import { VERSION } from "../base/version.ts";
import { ALL_SHIPPED_DEFAULTS } from "../config/defaults.ts";
import {
  DECLARED_CONTRACT,
  DECLARED_NAME,
  pythonJsonFile,
  readManifest,
  readVersionStamp,
} from "../config/bookkeeping.ts";
import { pluginOptsIn, pluginRelevantTo } from "../config/plugins.ts";
import { AGENT_ENV_FILE, readAgentEnv } from "../config/agent_env.ts";

/** The success evidence, relative to the config home. */
export const EVIDENCE_NAME = ".verified.json";
/** The operator env file a provider may be read from when nothing else names one. */
export const AGENT_ENV_NAME = AGENT_ENV_FILE;

/** Where the active provider was learned. */
export type ProviderSource = "argument" | "environment" | "agent.env" | "default";

/** One reason the declared set is not provably present. */
export interface Finding {
  /** A stable slug for the kind of gap (`overlay-file-missing`, `config-home-stale`, …). */
  readonly check: string;
  /** What it is about: a config-home-relative path, a stem, or `config home`. */
  readonly subject: string;
  /** The diagnosis, naming the values observed. */
  readonly detail: string;
  /** The command or decision that closes it. */
  readonly remedy: string;
}

/** The verdict and what it was read from. */
export interface ProofReport {
  readonly configHome: string;
  readonly harnessVersion: string;
  readonly declaredProvider: string | null;
  readonly activeProvider: string;
  readonly activeProviderSource: ProviderSource;
  readonly declaredFiles: readonly string[];
  readonly granted: readonly string[];
  readonly findings: readonly Finding[];
  /** The evidence file written, or null (not green, `--no-evidence`, or the write failed). */
  readonly evidence: string | null;
  /** Said when the verdict was green but the evidence could not be written. */
  readonly warnings: readonly string[];
  /** The knowledge pack's sha256 a turn would record; null when the load was not judged. */
  readonly knowledgeSha256: string | null;
}

/** The gaps the proof does not cover, stated in every JSON report. */
export const PROOF_NOTES: readonly string[] = [
  "Presence and currency, and the wake's own load: every config-home file is loaded as a wake " +
  "loads it, and one a wake would refuse is a wake-would-refuse finding. A declared tool file " +
  "being present does not mean it activates (its provider, its credential and the locked policy " +
  "all gate that). `harness resolved-config` is the authority on what is live on this box.",
  "Operator-added files in tools/ are never checked: nothing declares them, so nothing can say " +
  "whether their absence is a strip or a tidy-up.",
  "mcp/ ships empty and is operator-owned, so it carries no declaration; a server file a wake " +
  "cannot parse is a skipped server there, never a refusal, so it is no finding either.",
];

/** What {@link proveConfigHome} checks. */
export interface ProofOptions {
  /** The resolved config home. */
  readonly configHome: string;
  /** `--provider`, when given. */
  readonly provider?: string;
  /** `--expect-version`: the version this box was pinned to. */
  readonly expectVersion?: string;
  /** Write `.verified.json` on a green verdict (default true). */
  readonly record?: boolean;
  /** The environment (for `AI_PROVIDER`). */
  readonly env: (name: string) => string | undefined;
  /** The shipped defaults (default: the embedded ones; tests pass a newer set). */
  readonly defaults?: Readonly<Record<string, string>>;
  /** The running version (default: this build's). */
  readonly version?: string;
  /** The clock for the evidence stamp. */
  readonly now?: () => Date;
  /**
   * Findings judged elsewhere, reported first: the CLI passes the `wake-would-refuse` finding of
   * the wake's own configuration load (lib/runtime/wake_config.ts), which this layer cannot run.
   */
  readonly findings?: readonly Finding[];
  /** The knowledge pack's sha256 from the same load (docs/context.md#the-knowledge-pack). */
  readonly knowledgeSha256?: string;
}

const isToolRel = (rel: string) => /^tools\/[^/]+\.(json|py)$/.test(rel);
const toolStem = (rel: string) => rel.slice("tools/".length).replace(/\.(json|py)$/, "");
const INSTALL = "harness install";

/** Proves the declared set of `options.configHome`, or names exactly what is not there. */
export async function proveConfigHome(options: ProofOptions): Promise<ProofReport> {
  const root = options.configHome;
  const version = options.version ?? VERSION;
  const shipped = options.defaults ?? ALL_SHIPPED_DEFAULTS;
  const { provider: activeProvider, source } = await activeProviderOf(root, options);
  const findings: Finding[] = [...options.findings ?? []];
  const report = {
    configHome: root,
    harnessVersion: version,
    declaredProvider: null as string | null,
    activeProvider,
    activeProviderSource: source,
    declaredFiles: [] as string[],
    granted: [] as string[],
    findings,
    evidence: null as string | null,
    warnings: [] as string[],
    knowledgeSha256: options.knowledgeSha256 ?? null,
  };
  const add = (check: string, subject: string, detail: string, remedy: string) =>
    findings.push({ check, subject, detail, remedy });

  if (options.expectVersion && options.expectVersion !== version) {
    add(
      "package-pin-mismatch",
      "harness",
      `expected the pinned ${options.expectVersion}, running ${version}`,
      `install harness ${options.expectVersion} on this box`,
    );
  }

  const manifest = await readManifest(root);
  if (!Object.keys(manifest).length) {
    add(
      "config-home-not-installed",
      "config home",
      `no shipped defaults are recorded at ${root}: this agent runs off the embedded defaults, ` +
        "so it declares nothing and nothing can be proven",
      `run ${INSTALL} to lay down and declare the overlay`,
    );
    return report;
  }

  const stamp = await readVersionStamp(root);
  if (stamp !== version) {
    add(
      "config-home-stale",
      "config home",
      `last reconciled by harness ${stamp || "an unknown version"}, but ${version} is running: ` +
        "the overlay predates the installed binary",
      `run ${INSTALL}`,
    );
  }

  const declaration = await readDeclaration(root);
  if (declaration === undefined) {
    add(
      "declaration-missing",
      "config home",
      `${join(root, DECLARED_NAME)} is absent or unreadable, so this agent's capability set is ` +
        "undeclared and nothing about it can be proven",
      `run ${INSTALL} to write the declaration`,
    );
    return report;
  }
  if (declaration.contract !== DECLARED_CONTRACT) {
    add(
      "declaration-contract-unknown",
      "config home",
      `the declaration is contract ${JSON.stringify(declaration.contract ?? null)}; this ` +
        `harness understands ${DECLARED_CONTRACT}`,
      `run ${INSTALL} under the harness that wrote it, or upgrade`,
    );
    return report;
  }

  report.declaredProvider = typeof declaration.provider === "string" &&
      declaration.provider.trim()
    ? declaration.provider.trim().toLowerCase()
    : null;
  report.declaredFiles = strings(declaration.files).sort();
  report.granted = strings(declaration.opt_in).sort();
  const declared = report.declaredProvider;

  if (declared !== null && declared !== activeProvider) {
    const assumed = source === "default"
      ? " (nothing named a provider, neither the environment nor the config home's agent.env, " +
        "so the default was assumed; run the check with the agent's environment to rule the " +
        "check itself out)"
      : ` (read from ${source})`;
    add(
      "provider-mismatch",
      "config home",
      `the overlay was reconciled for provider '${declared}' but this agent runs ` +
        `AI_PROVIDER='${activeProvider}'${assumed}: its '${activeProvider}' tools were ` +
        "filtered out, and any it already had were pruned",
      `run ${INSTALL} with AI_PROVIDER=${activeProvider} set (or --provider ${activeProvider})`,
    );
  }

  const relevant = (rel: string) => pluginRelevantTo(shipped[rel], declared);
  const granted = new Set(report.granted);
  for (const stem of report.granted) {
    const rel = `tools/${stem}.json`;
    if (shipped[rel] === undefined) {
      add(
        "grant-not-shipped",
        stem,
        `granted, but harness ${version} ships no ${rel}: the capability is claimed and ` +
          "cannot exist",
        `${INSTALL} --revoke-opt-in ${stem}`,
      );
    } else if (relevant(rel) && !(await pathExists(join(root, rel)))) {
      add(
        "opt-in-missing",
        stem,
        `granted opt-in tool is missing from the overlay (${rel}): it was stripped, and this ` +
          "agent silently cannot do what it claims",
        `run ${INSTALL} to restore it, or --revoke-opt-in ${stem} if the removal was intended`,
      );
    }
  }

  for (const rel of report.declaredFiles) {
    if (isToolRel(rel) && granted.has(toolStem(rel))) continue;
    if (await pathExists(join(root, rel))) continue;
    add(
      "overlay-file-missing",
      rel,
      "present at the last reconcile and gone now: removed by something that did not update " +
        "the declaration",
      `run ${INSTALL}: it re-lays the file if the shipped default changed, or ratifies the ` +
        "deletion if you meant it",
    );
  }

  const expected = Object.keys(shipped).sort().filter((rel) =>
    !rel.startsWith("tools/") ||
    (relevant(rel) && (!pluginOptsIn(shipped[rel]) || granted.has(toolStem(rel))))
  );
  const missing = expected.filter((rel) => manifest[rel] === undefined);
  if (missing.length) {
    add(
      "default-not-installed",
      `${missing.length} shipped default(s)`,
      `shipped by this build but never laid down here: ${missing.join(", ")}`,
      `run ${INSTALL}`,
    );
  }
  const stale = expected.filter((rel) =>
    manifest[rel] !== undefined && manifest[rel] !== sha256Hex(shipped[rel])
  );
  if (stale.length) {
    add(
      "overlay-stale",
      `${stale.length} tracked file(s)`,
      "the manifest records a different default text than this build ships, so the overlay " +
        `is a snapshot of an older release: ${stale.join(", ")}`,
      `run ${INSTALL}`,
    );
  }

  if (!findings.length && options.record !== false) {
    const path = join(root, EVIDENCE_NAME);
    try {
      await atomicWrite(path, evidenceText(report, (options.now ?? (() => new Date()))()));
      report.evidence = path;
    } catch (error) {
      report.warnings.push(
        `Verified, but could not record the success evidence at ${path}: ${errorMessage(error)}`,
      );
    }
  }
  return report;
}

/** `.verified.json`: the green verdict, stamped, as the Python harness writes it. */
export function evidenceText(report: ProofReport, now: Date): string {
  return pythonJsonFile({
    checked: `${now.toISOString().slice(0, 19)}+00:00`,
    contract: 1,
    declared_files: report.declaredFiles.length,
    harness_version: report.harnessVersion,
    ok: true,
    opt_in: [...report.granted],
    provider: report.declaredProvider,
  });
}

/** The report as `--json` prints it (docs/operating.md#harness-verify). */
export function reportDocument(report: ProofReport): Record<string, unknown> {
  return {
    ok: report.findings.length === 0,
    config_home: report.configHome,
    harness_version: report.harnessVersion,
    // The binary is its own distribution: the version it embeds is the one installed.
    distribution_version: report.harnessVersion,
    declared_provider: report.declaredProvider,
    active_provider: report.activeProvider,
    active_provider_source: report.activeProviderSource,
    declared_files: [...report.declaredFiles],
    opt_in: [...report.granted],
    findings: report.findings.map((f) => ({
      check: f.check,
      subject: f.subject,
      detail: f.detail,
      remedy: f.remedy,
    })),
    evidence: report.evidence,
    // Additive: only when the wake's own load was judged (the CLI always judges it).
    ...(report.knowledgeSha256 === null ? {} : { knowledge_sha256: report.knowledgeSha256 }),
    notes: [...PROOF_NOTES],
  };
}

/** The human verdict: one headline, then a stanza per finding. */
export function reportSummary(report: ProofReport, name: string): string {
  if (!report.findings.length) {
    return `${name}: OK — harness ${report.harnessVersion}, ${report.declaredFiles.length} ` +
      `declared file(s), ${report.granted.length} granted opt-in tool(s). ` +
      `Config home: ${report.configHome}` +
      (report.knowledgeSha256 ? `\nknowledge_sha256 ${report.knowledgeSha256}` : "");
  }
  return [
    `${name}: FAILED — ${report.findings.length} finding(s). Config home: ${report.configHome}`,
    ...report.findings.map((f) => `  [${f.check}] ${f.subject}: ${f.detail}\n      → ${f.remedy}`),
  ].join("\n");
}

/** The declaration as read, or undefined when absent, unparseable, not an object or empty. */
export async function readDeclaration(root: string): Promise<Record<string, unknown> | undefined> {
  try {
    const raw: unknown = JSON.parse(await readText(join(root, DECLARED_NAME)));
    return isRecord(raw) && Object.keys(raw).length ? raw : undefined;
  } catch {
    return undefined;
  }
}

/** The string items of a declaration list (anything else is ignored). */
export function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}

/**
 * The provider this agent runs, and where that was learned: the argument, `AI_PROVIDER`, the
 * last `AI_PROVIDER=` line of the config home's agent.env, else `openai`.
 */
async function activeProviderOf(
  root: string,
  options: ProofOptions,
): Promise<{ provider: string; source: ProviderSource }> {
  if (options.provider?.trim()) {
    return { provider: options.provider.trim().toLowerCase(), source: "argument" };
  }
  const fromEnv = options.env("AI_PROVIDER")?.trim();
  if (fromEnv) return { provider: fromEnv.toLowerCase(), source: "environment" };
  const fromFile = await providerFromAgentEnv(root);
  if (fromFile) return { provider: fromFile, source: "agent.env" };
  return { provider: "openai", source: "default" };
}

/**
 * `AI_PROVIDER` as agent.env declares it, read as the router reads the file
 * ({@link readAgentEnv}: `export ` and one layer of matching quotes stripped, the last assignment
 * winning), lower-cased; `undefined` when the file names none.
 */
async function providerFromAgentEnv(root: string): Promise<string | undefined> {
  const value = (await readAgentEnv(root)).AI_PROVIDER?.trim().toLowerCase();
  return value || undefined;
}
