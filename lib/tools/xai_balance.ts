/**
 * `xai_account_balance`: the xAI team's prepaid credit balance, read-only, from the xAI
 * Management API (docs/tools.md#xai_account_balance-the-xai-credit-balance; opt-in stem of the
 * same name, xAI only).
 *
 * It authenticates with `XAI_MANAGEMENT_KEY`, never `AI_API_KEY`: the management key is a
 * separate credential with billing scope. Every failure is a soft sentence
 * (`xAI account balance unavailable — <reason>`), never an exception, because a balance is
 * context for the model, not something a turn should fail over. The endpoints and fields read
 * are documented in docs/tools.md and are checked against local mocks only.
 *
 * @module
 */
import { outboundFetch } from "../net/outbound.ts";
import * as z from "../base/zod.ts";
import { errorMessage } from "../base/error_text.ts";
import { type JsonSchema, Tool } from "../core/types/tool.ts";

/** The Management API root when `XAI_MANAGEMENT_URL` is unset. */
export const DEFAULT_XAI_MANAGEMENT_URL = "https://management-api.x.ai";

/** How long one answer is reused within this process. */
export const BALANCE_CACHE_MS = 30_000;

/** Where the balance is read from, as the wake's environment says. */
export interface XaiManagementEndpoint {
  /** `XAI_MANAGEMENT_URL`, else {@link DEFAULT_XAI_MANAGEMENT_URL} (no trailing slash). */
  readonly url: string;
  /** `XAI_MANAGEMENT_KEY`; never logged, redacted from every text. */
  readonly key?: string;
  /** `XAI_TEAM_ID`; set ⇒ no team discovery. */
  readonly teamId?: string;
}

/**
 * The endpoint from environment variables (blank values read as unset). A malformed
 * `XAI_MANAGEMENT_URL` is not thrown: it becomes the soft unavailable answer at call time.
 */
export function xaiManagementEndpointFrom(
  read: (name: string) => string | undefined,
): XaiManagementEndpoint {
  const value = (name: string) => read(name)?.trim() || undefined;
  return {
    url: (value("XAI_MANAGEMENT_URL") ?? DEFAULT_XAI_MANAGEMENT_URL).replace(/\/+$/, ""),
    key: value("XAI_MANAGEMENT_KEY"),
    teamId: value("XAI_TEAM_ID"),
  };
}

/** Test seams; every field has a production default. */
export interface XaiBalanceOptions {
  /** The HTTP client (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** Now in milliseconds (default: `Date.now`), for the cache. */
  readonly clock?: () => number;
  /** The cache (default: one shared by the whole process). */
  readonly cache?: Map<string, CachedBalance>;
}

/** One cached answer. */
export interface CachedBalance {
  /** When it was read ({@link XaiBalanceOptions.clock}). */
  readonly at: number;
  /** The text the model got. */
  readonly text: string;
}

const PROCESS_CACHE = new Map<string, CachedBalance>();

/** A money value as the API spells it: `{ val }` in cents, a string or a number. */
const Cents = z.looseObject({
  val: z.union([z.string(), z.number()]).transform((raw, ctx) => {
    const cents = typeof raw === "number" ? raw : Number(raw.trim());
    if (!Number.isFinite(cents)) {
      ctx.addIssue({ code: "custom", message: "val is not a number" });
      return z.NEVER;
    }
    return cents;
  }),
});

/** `GET /auth/management-keys/validation`: the key's own team (assumed field `teamId`). */
const Validation = z.looseObject({ teamId: z.string().min(1) });

/** `GET /v1/billing/teams/{team}/postpaid/invoice/preview`: the running invoice. */
const InvoicePreview = z.looseObject({
  coreInvoice: z.looseObject({ prepaidCredits: Cents, prepaidCreditsUsed: Cents }),
});

/** `GET /v1/billing/teams/{team}/prepaid/balance`: the credit ledger (assumed field `total`). */
const LedgerBalance = z.looseObject({ total: Cents });

/** A failed read, with a reason already fit for the model. */
class Unavailable extends Error {
  override name = "Unavailable";
}

/** Reads the xAI team's prepaid credit balance. */
export class XaiBalanceTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "xai_account_balance";
  /** What it does, for the model. */
  readonly description: string =
    "Read the xAI team's remaining prepaid credit balance in US dollars (read-only; no " +
    "arguments). The answer is cached for 30 seconds.";
  /** JSON Schema of the arguments: none. */
  override readonly parameters: JsonSchema = { type: "object", properties: {} };

  readonly #endpoint: XaiManagementEndpoint;
  readonly #fetch: typeof fetch;
  readonly #clock: () => number;
  readonly #cache: Map<string, CachedBalance>;

  /** Builds the tool for `endpoint`; see {@link XaiBalanceOptions}. */
  constructor(endpoint: XaiManagementEndpoint, options: XaiBalanceOptions = {}) {
    super();
    this.#endpoint = endpoint;
    this.#fetch = outboundFetch("xai_management", options.fetch);
    this.#clock = options.clock ?? Date.now;
    this.#cache = options.cache ?? PROCESS_CACHE;
  }

  /** The balance, or `xAI account balance unavailable — <reason>`; never throws. */
  async run(_args?: unknown): Promise<string> {
    const { url, key, teamId } = this.#endpoint;
    if (!key) return unavailable("XAI_MANAGEMENT_KEY is not set");
    // Keyed by the key too, so a changed credential never reads another's cached answer.
    const cacheKey = `${url}\n${teamId ?? ""}\n${key}`;
    const hit = this.#cache.get(cacheKey);
    const now = this.#clock();
    if (hit && now - hit.at < BALANCE_CACHE_MS) return hit.text;
    try {
      const text = await this.#read(url, key, teamId);
      this.#cache.set(cacheKey, { at: now, text });
      return text;
    } catch (error) {
      const reason = error instanceof Unavailable ? error.message : errorMessage(error);
      return unavailable(redact(reason.replace(/\s+/g, " ").trim(), key));
    }
  }

  async #read(url: string, key: string, teamId: string | undefined): Promise<string> {
    let protocol = "";
    try {
      protocol = new URL(url).protocol;
    } catch { /* refused below */ }
    if (protocol !== "http:" && protocol !== "https:") {
      throw new Unavailable(`XAI_MANAGEMENT_URL must be an http(s) URL, got '${url}'`);
    }
    const team = teamId ??
      (await this.#get(url, key, "/auth/management-keys/validation", Validation)).teamId;
    const base = `/v1/billing/teams/${encodeURIComponent(team)}`;
    const [invoice, ledger] = await Promise.allSettled([
      this.#get(url, key, `${base}/postpaid/invoice/preview`, InvoicePreview),
      this.#get(url, key, `${base}/prepaid/balance`, LedgerBalance),
    ]);
    // Credits are negative on xAI's invoice (a credit against the bill); negating both gives
    // granted and used as positive amounts.
    const ledgerCents = ledger.status === "fulfilled" ? -ledger.value.total.val : undefined;
    const ledgerNote = ledgerCents === undefined
      ? ""
      : `; ledger prepaid balance ${usd(ledgerCents)}`;
    if (invoice.status === "fulfilled") {
      const { prepaidCredits, prepaidCreditsUsed } = invoice.value.coreInvoice;
      const live = -prepaidCredits.val - -prepaidCreditsUsed.val;
      return `xAI account balance: ${usd(live)} (prepaid credits ${usd(-prepaidCredits.val)} ` +
        `minus ${usd(-prepaidCreditsUsed.val)} used this period${ledgerNote}).`;
    }
    if (ledgerCents !== undefined) {
      // The ledger does not subtract this period's running usage, so it can only bound it.
      return `xAI account balance: at most ${usd(ledgerCents)} (ledger prepaid balance; the ` +
        `live invoice preview is unavailable — ${reasonOf(invoice.reason)}).`;
    }
    throw new Unavailable(reasonOf(invoice.reason));
  }

  async #get<T>(url: string, key: string, path: string, schema: z.ZodType<T>): Promise<T> {
    let response: Response;
    try {
      response = await this.#fetch(`${url}${path}`, {
        headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new Unavailable(`${path}: transport error: ${errorMessage(error)}`);
    }
    const raw = await response.text().catch(() => "");
    if (!response.ok) {
      throw new Unavailable(`${path} answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new Unavailable(`${path} answered a body that is not JSON`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Unavailable(
        `${path} answered an unexpected shape (${issue?.path.join(".") || "body"}: ${
          issue?.message ?? "invalid"
        })`,
      );
    }
    return parsed.data;
  }
}

function unavailable(reason: string): string {
  return `xAI account balance unavailable — ${reason}`;
}

function reasonOf(error: unknown): string {
  return error instanceof Unavailable ? error.message : errorMessage(error);
}

/** Cents as `$1,234.56` (a negative balance keeps its sign: `-$3.00`). */
function usd(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const dollars = (Math.abs(cents) / 100).toFixed(2);
  const [whole, frac] = dollars.split(".");
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}

function redact(text: string, secret: string): string {
  return text.split(secret).join("***");
}
