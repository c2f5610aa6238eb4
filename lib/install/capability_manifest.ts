/**
 * The capability manifest, which the fleet calls the claims manifest
 * (docs/operating.md#harness-claims): this agent's rows for a fleet's claims-vs-evidence ledger,
 * one per declared capability, each naming the command that proves it. Its JSON keys (`claims`,
 * `claim`) are the fleet's contract; in this code base a claim is a wake's hold on an item
 * (lib/home/claims.ts), so the code calls this document the capability manifest.
 * It is built from the declaration, never from a verdict, so a box whose verify is red still
 * states every claim it makes; the two config-home rows and the log-grammar row are unconditional,
 * so even a box with no config home has rows to be red about.
 *
 * `harness claims` and `harness verify --emit-claims` both print {@link capabilityManifestText}, so the two
 * can never disagree by a byte.
 */
import { join } from "../base/paths.ts";
import { dumpsIndented, sortKeysDeep } from "../pycompat/json.ts";
import { shellQuote } from "../pycompat/shlex.ts";
import { EVIDENCE_NAME, readDeclaration, strings } from "./proof.ts";

/** The manifest contract this emitter speaks. */
export const MANIFEST_CONTRACT = 1;
/** The `component` every manifest names. */
export const MANIFEST_COMPONENT = "basecradle-harness";
/** The script the config-home rows' probe runs (the Python console-script name). */
export const VERIFY_SCRIPT = "basecradle-harness-verify";
/** The script the log-grammar row's probe runs (the Python console-script name). */
export const LOG_GRAMMAR_SCRIPT = "basecradle-harness-log-grammar";
/** The journald identifier the log-grammar probe writes under. */
export const LOG_GRAMMAR_IDENTIFIER = "basecradle-log-grammar";
/** The log-grammar columns this build can exercise. */
export const LOG_GRAMMAR_COLUMNS = ["billing_blocked"] as const;
/** Hours a log-grammar proof stays fresh. */
export const LOG_GRAMMAR_TTL_HOURS = 1;

/** What the manifest is built from. */
export interface CapabilityManifestOptions {
  /** The resolved config home. */
  readonly configHome: string;
  /** The agent slug (`--subject`, `BASECRADLE_AGENT_SLUG`, else the OS user). */
  readonly subject: string;
  /**
   * How a script name becomes the command written into `cmd`: its absolute path beside the
   * running binary when installed there, else the bare name.
   */
  readonly script: (name: string) => string;
}

/** The manifest as an object, rows in contract order. */
export async function capabilityManifest(
  options: CapabilityManifestOptions,
): Promise<Record<string, unknown>> {
  const root = options.configHome;
  const declaration = await readDeclaration(root) ?? {};
  const files = strings(declaration.files);
  const granted = strings(declaration.opt_in);
  const probe = `${shellQuote(options.script(VERIFY_SCRIPT))} --config-home ${shellQuote(root)}`;
  const evidence = join(root, EVIDENCE_NAME);
  const row = (claim: string) => ({
    claim,
    class: "dependency",
    prove: { kind: "probe", cmd: probe },
    evidence,
    ttl_hours: null,
  });
  // A granted tool is claimed even when its file never landed: that row is the one to be red.
  const stems = new Set(granted);
  for (const rel of files) {
    const match = /^tools\/([^/]+)\.(json|py)$/.exec(rel);
    if (match) stems.add(match[1]);
  }
  const prompts = files.filter((rel) => rel.startsWith("prompts/")).sort()
    .map((rel) => `overlay-prompt:${rel.slice("prompts/".length)}`);
  const ids = [
    "harness-config-home",
    "harness-package-pin",
    ...[...stems].sort().map((stem) => `overlay-tool:${stem}`),
    ...prompts,
  ];
  const grammar = LOG_GRAMMAR_COLUMNS.map((column) => ({
    claim: `log-grammar:${column}`,
    class: "rare",
    prove: { kind: "probe", cmd: `${shellQuote(options.script(LOG_GRAMMAR_SCRIPT))} ${column}` },
    evidence: `journal:${LOG_GRAMMAR_IDENTIFIER}`,
    ttl_hours: LOG_GRAMMAR_TTL_HOURS,
  }));
  return {
    contract: MANIFEST_CONTRACT,
    subject: `agent:${options.subject}`,
    component: MANIFEST_COMPONENT,
    claims: [...ids.map(row), ...grammar],
  };
}

/**
 * The manifest's exact bytes: Python `json.dumps(indent=2, sort_keys=True)` (non-ASCII escaped,
 * so it survives an `LC_ALL=C` pipe), without the trailing newline the commands add.
 */
export async function capabilityManifestText(options: CapabilityManifestOptions): Promise<string> {
  return dumpsIndented(sortKeysDeep(await capabilityManifest(options)));
}
