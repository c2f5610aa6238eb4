/**
 * The onboarding orientation (`HARNESS_ONBOARD`, docs/poll.md): a short, bounded summary of
 * the agent's dashboard — what this place is, who the agent is here, where the docs live —
 * prefixed to the poll loop's charter, so a freshly started peer already knows the platform it
 * is on. Only fields the dashboard actually returned are rendered, each capped, so a verbose or
 * hostile server cannot inflate every turn's prompt.
 */
import { headCodePoints } from "../base/code_points.ts";
import type { Dashboard } from "../platform/mod.ts";

/** The heading the orientation opens with. */
export const ORIENTATION_HEADING = "Your BaseCradle orientation:";

/** Most code points any one dashboard field contributes. */
export const FIELD_LIMIT = 400;

// Label and wire field, in reading order; a link is shown only when the dashboard has it.
const DOC_LINKS = [
  ["User guide", "user_guide"],
  ["API", "api"],
  ["API reference", "reference"],
  ["OpenAPI", "openapi"],
  ["Changelog", "changelog"],
] as const;

/**
 * The orientation for `dashboard`, or `undefined` when it carries none (an identity-only
 * dashboard from an older platform): then the charter is left exactly as the operator wrote it.
 */
export function orientation(dashboard: Dashboard): string | undefined {
  const lines: string[] = [];
  const env = dashboard.environment;
  const name = field(env?.name);
  const summary = field(env?.summary);
  const youAre = field(env?.you_are);
  if (name && summary) lines.push(`You are on ${name} — ${summary}`);
  else if (summary) lines.push(summary);
  if (youAre) lines.push(`Here, you are ${sentence(youAre)}`);
  const docs = DOC_LINKS.flatMap(([label, key]) => {
    const url = field(dashboard.documentation?.[key]);
    return url ? [`- ${label}: ${url}`] : [];
  });
  if (docs.length) lines.push("Documentation:", ...docs);
  if (!lines.length) return undefined;
  // Identity rides along only with a real orientation, so an identity-only dashboard changes
  // nothing; the handle is what peers will call the agent, which poll mode has no brief to say.
  const handle = field(dashboard.identity.handle)?.replace(/^@/, "");
  if (handle) lines.push(`You are signed in as @${handle}.`);
  return [ORIENTATION_HEADING, ...lines].join("\n");
}

/** The orientation first, then the operator's charter; `undefined` when both are absent. */
export function withOrientation(
  prefix: string | undefined,
  charter: string | undefined,
): string | undefined {
  const parts = [prefix, charter].filter((part): part is string => !!part?.trim());
  return parts.length ? parts.join("\n\n") : undefined;
}

/** Ends `text` with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A trimmed, capped string field; `undefined` for a missing, blank or non-string value. */
function field(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.trim()) return undefined;
  return headCodePoints(value.trim(), FIELD_LIMIT);
}
