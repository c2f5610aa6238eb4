/**
 * Pinning (beyond the reference): `harness mcp approve <server>` records a hash of the server's
 * tool list — names, descriptions and input schemas, as canonical JSON, sha256 — in
 * `<config-home>/mcp/.approved.json`. A wake loads a server's tools only while the list it
 * serves still hashes to the approval, so a server update that rewrites a description (the
 * words the model obeys) or widens a schema is refused until the operator looks and re-approves.
 *
 * A never-approved server is refused too, and refused BEFORE it is spawned: dropping a file in
 * `mcp/` is not by itself consent to run it (the safer default; see
 * docs/mcp.md#pinning-harness-mcp-approve).
 */
import { errorMessage } from "../base/error_text.ts";
import { atomicWrite } from "../base/atomic_write.ts";

/** Where approvals live, relative to the config home. */
export const APPROVALS_FILE = "mcp/.approved.json";

/** One server's approval. */
export interface Approval {
  /** sha256 of the canonical tool list. */
  readonly sha256: string;
  /** Per-tool sha256 by tool name, so a refusal can name what changed. */
  readonly tools: Readonly<Record<string, string>>;
  /** When it was approved (ISO 8601). */
  readonly approved_at: string;
}

/** The approvals file, read. */
export interface Approvals {
  readonly servers: Readonly<Record<string, Approval>>;
  /** Set when the file exists but could not be used; every server then reads unapproved. */
  readonly problem?: string;
}

/** A tool list's fingerprint. */
export interface ToolListDigest {
  readonly sha256: string;
  readonly tools: Readonly<Record<string, string>>;
}

/**
 * JSON with object keys sorted at every depth and no whitespace: the same value always yields
 * the same bytes, whatever order the server happened to emit its keys in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${
      keys.filter((k) => record[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")
    }}`;
  }
  return JSON.stringify(value ?? null);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Fingerprints the tool list exactly as the server sent it (before any sanitising or
 * truncation), so a change hidden past the description cap still counts.
 */
export async function digestToolList(rawTools: readonly unknown[]): Promise<ToolListDigest> {
  const entries: [string, string][] = [];
  for (const [index, raw] of rawTools.entries()) {
    const r = raw !== null && typeof raw === "object" ? raw as Record<string, unknown> : undefined;
    const pinned = r
      ? { name: r.name ?? null, description: r.description ?? null, inputSchema: r.inputSchema }
      : raw;
    let key = typeof r?.name === "string" ? r.name : `#${index}`;
    while (entries.some(([k]) => k === key)) key += "#";
    entries.push([key, canonicalJson(pinned)]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const tools: Record<string, string> = {};
  for (const [key, json] of entries) tools[key] = await sha256(json);
  return { sha256: await sha256(canonicalJson(entries.map(([, json]) => json))), tools };
}

/** Reads the approvals; a missing file is no approvals, a damaged one is reported, not thrown. */
export async function readApprovals(configHome: string): Promise<Approvals> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${configHome}/${APPROVALS_FILE}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { servers: {} };
    return { servers: {}, problem: `${APPROVALS_FILE} is unreadable: ${errorMessage(error)}` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    const servers = (parsed as { servers?: unknown })?.servers;
    if (servers === null || typeof servers !== "object" || Array.isArray(servers)) {
      throw new Error("no 'servers' object");
    }
    const good: Record<string, Approval> = {};
    for (const [name, entry] of Object.entries(servers)) {
      const e = entry as Partial<Approval> | null;
      if (typeof e?.sha256 === "string" && e.tools && typeof e.tools === "object") {
        good[name] = { sha256: e.sha256, tools: e.tools, approved_at: String(e.approved_at) };
      }
    }
    return { servers: good };
  } catch (error) {
    return { servers: {}, problem: `${APPROVALS_FILE} is malformed: ${errorMessage(error)}` };
  }
}

/** Whether `server` has an approval on record. */
export function isApproved(approvals: Approvals, server: string): boolean {
  return Object.hasOwn(approvals.servers, server);
}

/** The command that (re-)approves `server`. */
export function approveCommand(server: string): string {
  return `harness mcp approve ${server}`;
}

/** Why a never-approved server is refused (it is not spawned). */
export function unapprovedReason(server: string, approvals: Approvals): string {
  const why = approvals.problem ? ` (${approvals.problem})` : "";
  return `its tool list has not been approved${why} — review it with 'harness mcp list', ` +
    `then run '${approveCommand(server)}'`;
}

/**
 * Compares a live tool list with the approval.
 * @returns undefined when it matches, else the refusal naming what changed.
 */
export function pinMismatch(
  server: string,
  approval: Approval,
  digest: ToolListDigest,
): string | undefined {
  if (approval.sha256 === digest.sha256) return undefined;
  const before = approval.tools;
  const after = digest.tools;
  const added = Object.keys(after).filter((k) => !Object.hasOwn(before, k));
  const removed = Object.keys(before).filter((k) => !Object.hasOwn(after, k));
  const changed = Object.keys(after).filter((k) =>
    Object.hasOwn(before, k) && before[k] !== after[k]
  );
  const parts = [
    ["added", added],
    ["removed", removed],
    ["changed", changed],
  ].filter(([, names]) => names.length > 0)
    .map(([label, names]) => `${label}: ${bounded(names as string[])}`);
  const detail = parts.length ? parts.join("; ") : "tool order or encoding";
  return `its tool list changed since it was approved (${detail}) — review it, then run ` +
    `'${approveCommand(server)}'`;
}

function bounded(names: string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** Records `digest` as `server`'s approval (atomic write; other servers' entries are kept). */
export async function recordApproval(
  configHome: string,
  server: string,
  digest: ToolListDigest,
  now: Date = new Date(),
): Promise<void> {
  const current = await readApprovals(configHome);
  if (current.problem && !current.problem.includes("malformed")) throw new Error(current.problem);
  const servers: Record<string, Approval> = { ...current.servers };
  servers[server] = { sha256: digest.sha256, tools: digest.tools, approved_at: now.toISOString() };
  const sorted = Object.fromEntries(Object.entries(servers).sort(([a], [b]) => (a < b ? -1 : 1)));
  await atomicWrite(
    `${configHome}/${APPROVALS_FILE}`,
    `${JSON.stringify({ version: 1, servers: sorted }, null, 2)}\n`,
  );
}

/** Removes `server`'s approval (no-op when absent). */
export async function revokeApproval(configHome: string, server: string): Promise<boolean> {
  const current = await readApprovals(configHome);
  if (!isApproved(current, server)) return false;
  const servers = { ...current.servers };
  delete servers[server];
  await atomicWrite(
    `${configHome}/${APPROVALS_FILE}`,
    `${JSON.stringify({ version: 1, servers }, null, 2)}\n`,
  );
  return true;
}
