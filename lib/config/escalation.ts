/**
 * `escalation.json` in the config home (docs/configuration.md#escalationjson): whether, and on
 * which triggers, the harness itself pushes a notice to the operator over the direct-message
 * channel when the agent could not answer safely (docs/operating.md#escalation). Absent is off.
 * Anything invalid — including escalation switched on without `NTFY_DM_TOKEN` — refuses to load
 * with a sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import * as z from "../base/zod.ts";

/** `escalation.json`, relative to the config home. */
export const ESCALATION_FILE = "escalation.json";

/** Why the harness escalated: the fixed vocabulary of the notice and the journal lines. */
export const ESCALATION_REASONS = [
  "gate_refused_twice",
  "step_budget_exhausted_unanswered",
  "billing_wall",
  "budget_exhausted",
  "model_refused",
] as const;

/** One trigger. */
export type EscalationReason = typeof ESCALATION_REASONS[number];

/** What the file resolves to. */
export interface EscalationConfig {
  /** `enabled` as written (false when the file is absent). */
  readonly enabled: boolean;
  /** The triggers that notify, sorted; empty whenever `enabled` is false. */
  readonly on: readonly EscalationReason[];
}

/** Escalation off: no file, or `"enabled": false`. */
export const ESCALATION_OFF: EscalationConfig = Object.freeze({ enabled: false, on: [] });

const fileSchema = z.lazySchema(() =>
  z.strictObject({
    enabled: z.boolean(),
    on: z.array(z.enum(ESCALATION_REASONS)).optional(),
  })
);

const FIX_ON = `a list of ${ESCALATION_REASONS.map((r) => `"${r}"`).join(", ")}`;

/**
 * `configHome`'s `escalation.json`, resolved; {@link ESCALATION_OFF} when absent.
 * `token` is `NTFY_DM_TOKEN`: escalation switched on without it refuses.
 * @throws {ConfigError} naming the file, the key and the fix.
 */
export async function loadEscalation(
  configHome: string,
  token: string | undefined,
): Promise<EscalationConfig> {
  const path = join(configHome, ESCALATION_FILE);
  const value = await readOptionalJson(path, { deleteTo: "switch escalation off" });
  if (value === ABSENT) return ESCALATION_OFF;
  return resolveEscalation(value, token, path);
}

/**
 * Validates an already-parsed `escalation.json` (pure).
 * @throws {ConfigError} naming `file`, the key and the fix.
 */
export function resolveEscalation(
  value: unknown,
  token: string | undefined,
  file: string = ESCALATION_FILE,
): EscalationConfig {
  const parsed = fileSchema().safeParse(value);
  if (!parsed.success) {
    const { issue, path, key } = firstProblem(parsed.error);
    const top = String(path[0] ?? "");
    throw refuseFile(
      file,
      path.length === 0
        ? `${file} must be a JSON object such as {"enabled": true}. Fix: write that, or delete ` +
          "the file to switch escalation off."
        : top === "enabled"
        ? `${file} key 'enabled' must be true or false (${issue.message}). Fix: set it to true ` +
          "or false."
        : top === "on"
        ? `${file} key '${key}' must be ${FIX_ON} (${issue.message}). Fix: list only those ` +
          "triggers, or remove 'on' to notify on all of them."
        : `${file} key '${key}' is not an escalation setting. Fix: use 'enabled' and 'on' ` +
          "only, or remove it.",
    );
  }
  const { enabled, on } = parsed.data;
  if (!enabled) return ESCALATION_OFF;
  if (!token?.trim()) {
    throw refuseFile(
      file,
      `${file} key 'enabled' is true but NTFY_DM_TOKEN is not set, so no notice could be sent. ` +
        `Fix: set NTFY_DM_TOKEN (and NTFY_DM_URL for your own topic), or set 'enabled' to false.`,
    );
  }
  const chosen = new Set(on ?? ESCALATION_REASONS);
  return Object.freeze({
    enabled: true,
    on: Object.freeze(ESCALATION_REASONS.filter((reason) => chosen.has(reason)).sort()),
  });
}
