/**
 * The two failure reports a wake posts on the agent's timeline (docs/models.md#retries-and-fault-classes), worded in the
 * first person because they stand in for a reply the agent could not give: a permanent rejection
 * (payload too large, context too long) and the once-per-outage out-of-credit notice.
 */
import { errorMessage } from "../base/error_text.ts";
import type { PermanentReason } from "../journal/catalogue_wake.ts";

/** What kind of item the report is about, for the `<item>` phrase. */
export type ReportedItem =
  | { readonly kind: "message"; readonly count: number }
  | { readonly kind: "asset"; readonly filename?: string }
  | { readonly kind: "event" }
  | { readonly kind: "task" };

/** `your message` / `your messages` / `the file you shared (<name>)` / … */
export function itemPhrase(item: ReportedItem): string {
  switch (item.kind) {
    case "message":
      return item.count > 1 ? "your messages" : "your message";
    case "asset":
      return `the file you shared (${item.filename ?? "unnamed file"})`;
    case "event":
      return "the webhook delivery";
    case "task":
      return "the scheduled task";
  }
}

/** The vendor as people name it: `OpenAI`, `xAI`, `OpenRouter`, else the raw provider string. */
export function providerLabel(provider: string): string {
  const known: Record<string, string> = { openai: "OpenAI", xai: "xAI", openrouter: "OpenRouter" };
  return known[provider.toLowerCase()] ?? provider;
}

/**
 * The vendor's own words: the error body's `error.message`, `error.msg`, a string `error`,
 * `message`, `msg` or `detail`; else the raw body; else the exception text.
 */
export function verbatim(error: unknown): string {
  const body = typeof error === "object" && error !== null && "body" in error
    ? (error as { body: unknown }).body
    : undefined;
  const fromBody = pickText(body);
  if (fromBody) return fromBody;
  if (typeof body === "string" && body.trim()) return body;
  if (body !== undefined && body !== null) {
    try {
      return JSON.stringify(body);
    } catch { /* fall through to the exception text */ }
  }
  return errorMessage(error);
}

function pickText(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === "object" && inner !== null) {
    const e = inner as Record<string, unknown>;
    for (const key of ["message", "msg"]) if (typeof e[key] === "string" && e[key]) return e[key];
  }
  if (typeof inner === "string" && inner) return inner;
  for (const key of ["message", "msg", "detail"]) {
    if (typeof record[key] === "string" && record[key]) return record[key] as string;
  }
  return undefined;
}

/** The permanent-failure report body. */
export function permanentReport(
  reason: PermanentReason,
  item: ReportedItem,
  provider: string,
  vendorText: string,
): string {
  const tail = reason === "payload_too_large"
    ? " The original file is untouched; a smaller or cropped version may work."
    : " This conversation has grown too long for my context window here.";
  return `I couldn't process ${itemPhrase(item)}: ${
    providerLabel(provider)
  } rejected the request — ${vendorText}.${tail}`;
}

/** The out-of-credit notice (posted once per outage). */
export function billingReport(provider: string, vendorText: string): string {
  const name = providerLabel(provider);
  return `I can't respond right now — my ${name} account is out of credit (${vendorText}). ` +
    `Add funds to the ${name} account to resume; pending messages will be handled then.`;
}
