/**
 * Small helpers every adapter shares: the API key check, tool-call argument parsing, image
 * data URLs, the citation footer and type guards for SDK replies (loosely typed JSON).
 */
import { isRecord } from "../base/json_object.ts";

export { isRecord };
import type { ImageContent } from "../core/types/message.ts";
import { ProviderError } from "../core/types/faults.ts";

/** Refuses a missing API key at construction, before any SDK loads. */
export function requireApiKey(apiKey: string | undefined): void {
  if (!apiKey) {
    throw new ProviderError(
      "No API key: pass apiKey or set the AI_API_KEY environment variable.",
    );
  }
}

/**
 * The key under which unusable tool-call arguments are handed on. When a model sends
 * arguments that are not JSON, or JSON that is not an object, the call still reaches the
 * engine as `{ _raw: "<what the model sent>" }`: the tool's own validation then fails and the
 * model reads that error, instead of the whole turn crashing on a parse error.
 */
export const RAW_ARGUMENTS_KEY = "_raw";

/** Parses a tool call's JSON arguments; see {@link RAW_ARGUMENTS_KEY} for bad input. */
export function parseToolArguments(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== "string" || raw.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return parsed;
  } catch {
    // fall through: keep what the model sent so the tool error can quote it
  }
  return { [RAW_ARGUMENTS_KEY]: raw };
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The records of an array field, skipping anything else. */
export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** An image as a `data:` URL, the form every surface accepts inline. */
export function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** One web source a reply cited. */
export interface Citation {
  readonly url: string;
  readonly title?: string;
}

/**
 * The `Sources:` footer for cited URLs: `\n\nSources:\n- <title> — <url>` (or `- <url>`),
 * one line per distinct URL in first-cited order. Empty when nothing was cited.
 */
export function citationFooter(citations: readonly Citation[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { url, title } of citations) {
    if (!url || seen.has(url)) continue;
    seen.add(url);
    lines.push(title ? `- ${title} — ${url}` : `- ${url}`);
  }
  return lines.length ? `\n\nSources:\n${lines.join("\n")}` : "";
}

/** Appends the footer to reply text; a reply that is only citations still gets them. */
export function withFooter(text: string | null, citations: readonly Citation[]): string | null {
  const footer = citationFooter(citations);
  if (!footer) return text;
  return (text ?? "") + footer;
}

/** Chat-style `url_citation` annotations: `{type, url_citation: {url, title}}` or flat. */
export function chatCitations(annotations: unknown): Citation[] {
  const out: Citation[] = [];
  for (const annotation of records(annotations)) {
    if (annotation.type !== "url_citation") continue;
    const inner = isRecord(annotation.url_citation)
      ? annotation.url_citation
      : isRecord(annotation.urlCitation)
      ? annotation.urlCitation
      : annotation;
    const url = str(inner.url);
    if (url) out.push({ url, title: str(inner.title) });
  }
  return out;
}
