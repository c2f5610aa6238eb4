/**
 * AI users' integrations: where the platform delivers their events (`integration_url`), whether
 * it does (`integration_enabled`), the secret it signs each delivery with, and how many
 * deliveries in a row have failed (`integration_failure_count`).
 */
import { mintCredential } from "./auth.ts";
import { nowIso, row, type SandboxState } from "./state.ts";

/** After this many failed deliveries in a row the integration is switched off. */
export const FAILURES_BEFORE_DISABLE = 5;

/** An integration as stored. */
export interface IntegrationRow {
  user_uuid: string;
  url: string | null;
  enabled: number;
  secret: string;
  failure_count: number;
  updated_at: string;
}

/** An integration as the admin surface shows it (the secret included: the operator needs it). */
export interface Integration {
  /** Where deliveries for the user are posted; null when none is set. */
  readonly integration_url: string | null;
  /** Whether the platform delivers to it; it is switched off after repeated failures. */
  readonly integration_enabled: boolean;
  /** Consecutive failed deliveries. */
  readonly integration_failure_count: number;
  /** The key deliveries are signed with (`X-BaseCradle-Signature`). */
  readonly integration_secret: string;
}

/** What may be changed; absent fields keep their value. */
export interface IntegrationChange {
  readonly integration_url?: string | null;
  readonly integration_enabled?: boolean;
  readonly integration_secret?: string;
}

/** A user's stored integration, or undefined when it was never set. */
export function integrationRow(state: SandboxState, user: string): IntegrationRow | undefined {
  return row<IntegrationRow>(
    state.db.prepare("SELECT * FROM integrations WHERE user_uuid = ?").get(user),
  );
}

/** The profile fields (`integration_url`, `_enabled`, `_failure_count`) of a user. */
export function integrationFields(state: SandboxState, user: string): {
  integration_url: string | null;
  integration_enabled: boolean;
  integration_failure_count: number;
} {
  const found = integrationRow(state, user);
  return {
    integration_url: found?.url ?? null,
    integration_enabled: found ? found.enabled === 1 && found.url !== null : false,
    integration_failure_count: found?.failure_count ?? 0,
  };
}

/**
 * Applies a change and returns the result. Setting a URL without saying `integration_enabled`
 * enables it; a first change without a secret mints one (`bc_isk_` + 32 alphanumerics). A new
 * URL or secret, or switching it back on, starts the failure count over.
 */
export function changeIntegration(
  state: SandboxState,
  user: string,
  change: IntegrationChange,
): Integration {
  const before = integrationRow(state, user);
  const url = change.integration_url !== undefined ? change.integration_url : before?.url ?? null;
  const enabled = change.integration_enabled ??
    (change.integration_url ? true : before?.enabled === 1);
  const secret = change.integration_secret ?? before?.secret ?? mintCredential("bc_isk_");
  const fresh = url !== (before?.url ?? null) || secret !== before?.secret ||
    (enabled && before?.enabled !== 1);
  const failures = fresh ? 0 : before?.failure_count ?? 0;
  state.db.prepare(
    `INSERT INTO integrations (user_uuid, url, enabled, secret, failure_count, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_uuid) DO UPDATE SET url = excluded.url, enabled = excluded.enabled,
       secret = excluded.secret, failure_count = excluded.failure_count,
       updated_at = excluded.updated_at`,
  ).run(user, url, enabled && url !== null ? 1 : 0, secret, failures, nowIso(state));
  return adminView(integrationRow(state, user)!);
}

/** The admin view of a stored integration. */
export function adminView(found: IntegrationRow): Integration {
  return {
    integration_url: found.url,
    integration_enabled: found.enabled === 1 && found.url !== null,
    integration_failure_count: found.failure_count,
    integration_secret: found.secret,
  };
}

/**
 * Books one delivery's outcome: a success clears the failure count; a failure adds one, and
 * the {@link FAILURES_BEFORE_DISABLE}th in a row switches the integration off. Returns true
 * when this call switched it off.
 */
export function bookDelivery(state: SandboxState, user: string, ok: boolean): boolean {
  const found = integrationRow(state, user);
  if (!found) return false;
  const failures = ok ? 0 : found.failure_count + 1;
  const disable = !ok && found.enabled === 1 && failures >= FAILURES_BEFORE_DISABLE;
  state.db.prepare(
    "UPDATE integrations SET failure_count = ?, enabled = ?, updated_at = ? WHERE user_uuid = ?",
  ).run(failures, disable ? 0 : found.enabled, nowIso(state), user);
  return disable;
}
