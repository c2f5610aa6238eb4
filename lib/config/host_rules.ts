/**
 * `host_rules.json` in the config home (docs/configuration.md#host_rulesjson): the operator's
 * allowlist of the hosts the harness itself may send requests to (docs/security.md#host-rules).
 * Absent is unrestricted; `{"allow": []}` denies every host; anything invalid refuses to load
 * with a sentence naming the file, the entry and the fix.
 */
import { compileHostRules, compileRule, HostRuleError, type HostRules } from "../net/host_rules.ts";
import { join } from "../base/paths.ts";
import { ABSENT, readOptionalJson, refuseFile } from "./optional_file.ts";
import * as z from "../base/zod.ts";

export { hostFence } from "../net/host_rules.ts";

/** `host_rules.json`, relative to the config home. */
export const HOST_RULES_FILE = "host_rules.json";

/** The file: one key, `allow`, a list of entries; unknown keys refuse. */
const FileSchema = z.strictObject({ allow: z.array(z.string()) });

const SHAPE = 'Fix: write {"allow": ["api.openai.com", "basecradle.com"]} (every host the ' +
  "harness may reach), or delete the file to lift the restriction.";

/**
 * The compiled rules of `configHome`'s `host_rules.json`, or null when there is no file.
 * @throws {ConfigError} naming the file, the entry and the fix when the file is unreadable, not
 * JSON, not of the documented shape, or holds an entry that is not a rule.
 */
export async function loadHostRules(configHome: string): Promise<HostRules | null> {
  const path = join(configHome, HOST_RULES_FILE);
  const value = await readOptionalJson(path, {
    deleteTo: "lift the host restriction",
    notJsonFix: SHAPE,
  });
  if (value === ABSENT) return null;
  return parseHostRules(value, path);
}

/**
 * Validates an already-parsed `host_rules.json` and compiles it (pure).
 * @throws {ConfigError} naming `file`, the entry and the fix.
 */
export function parseHostRules(value: unknown, file: string = HOST_RULES_FILE): HostRules {
  const parsed = FileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.code === "unrecognized_keys"
      ? issue.keys[0]
      : issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join("");
    const where = key ? ` key '${key}'` : "";
    throw refuseFile(file, `${file}${where} is invalid (${issue.message}). ${SHAPE}`);
  }
  const entries = parsed.data.allow;
  // Each entry alone first, so the refusal can name its index.
  for (const [index, entry] of entries.entries()) {
    try {
      compileRule(entry);
    } catch (error) {
      if (!(error instanceof HostRuleError)) throw error;
      throw refuseFile(file, `${file} entry allow[${index}] ${error.message}`);
    }
  }
  return compileHostRules(entries, file);
}
