/**
 * `web_fetch`: read one public web page. The URL comes from the model, so it is not trusted:
 * only https, only public hosts (every resolved address checked, every redirect hop checked
 * again), the connection dialled at the exact address that was checked, a 20 s deadline and a
 * 256 KiB body cap. HTML is reduced to readable text; other text passes through; anything else
 * is described, not dumped. See docs/tools.md#web_fetch-read-one-web-page.
 *
 * Refusals and failures are returned as the reference's wording (`Couldn't fetch '<url>': <why>`
 * / `Couldn't reach '<url>': <why>`), as every platform tool relays its refusals, so a persona
 * written for the Python harness reads the same text. Only a call with no `url` (the model's own
 * mistake) throws. An HTTP error status is an answer, not a failure, and is returned as text.
 */
import { errorMessage } from "../base/error_text.ts";
import { fenceCheck, HostNotAllowedError } from "../net/host_fence.ts";
import * as z from "../base/zod.ts";
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { type AddressPolicy, publicAddressPolicy } from "../net/address_policy.ts";
import { charsetOf, isHtmlType, isTextType, mediaType } from "./net/content_type.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { decodeContent } from "../net/http1.ts";
import { type HttpResponse, pinnedTransport, type Transport } from "../net/pinned_transport.ts";
import { pyRepr } from "../pycompat/repr.ts";
import { readCapped } from "../net/read_capped.ts";
import { denoResolver, type Resolver } from "../net/dns.ts";
import { checkTarget, FenceRefusal, FetchRefusal, parseTargetUrl } from "../net/target.ts";

/** The largest body read, as the assets tool's inline cap: enough for an article. */
export const MAX_FETCH_BYTES = 256 * 1024;
/** Redirects followed before giving up; each one is re-validated. */
export const MAX_REDIRECTS = 5;
/** The whole fetch (resolve, connect, every hop, the body) must finish within this. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** An honest User-Agent, so a site that wants to refuse a bot can. */
export const USER_AGENT = "basecradle-harness/web_fetch";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Options for {@link WebFetchTool}; every field has a production default. */
export interface WebFetchOptions {
  /** Overall deadline in milliseconds (default 20 000). */
  readonly timeoutMs?: number;
  /** Body cap in bytes (default 262 144). */
  readonly maxBytes?: number;
  /** Redirects followed (default 5). */
  readonly maxRedirects?: number;
  /** Resolves host names (default: `Deno.resolveDns`, A and AAAA). */
  readonly resolver?: Resolver;
  /** Judges addresses on every hop (default: public addresses only). */
  readonly policy?: AddressPolicy;
  /**
   * Judges the first hop's addresses instead of `policy`. A test seam: a local test server is
   * itself on loopback, so a test lets the first hop through and proves that every redirect
   * hop is still judged by the real policy. Never set this in production.
   */
  readonly firstHopPolicy?: AddressPolicy;
  /** Performs each GET (default: the pinned HTTPS transport). */
  readonly transport?: Transport;
  /** Extra PEM roots for the default transport (e.g. a test CA or a corporate root). */
  readonly caCerts?: readonly string[];
}

const ArgsSchema = z.object({ url: z.string().nullish() }).passthrough();

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    url: {
      type: "string",
      description: "The absolute https URL to read, e.g. 'https://example.com/page'.",
    },
  },
  required: ["url"],
};

/** Fetches a public https URL and returns its content as readable text. */
export class WebFetchTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "web_fetch";
  /** What it does, for the model. */
  readonly description: string =
    "Read one public web page or document by URL. Give an absolute https URL; the page is " +
    "fetched and returned as readable text (HTML is reduced to prose, JSON and plain text " +
    "come back as they are). Use it to read a page you were pointed at; it does not search. " +
    "Only public https URLs work: http, private, loopback and local-network targets are " +
    "refused. Long pages are cut at 256 KiB, and binary files (images, PDFs, archives) are " +
    "described, not returned.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = PARAMETERS;

  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #maxRedirects: number;
  readonly #resolver: Resolver;
  readonly #policy: AddressPolicy;
  readonly #firstHopPolicy: AddressPolicy;
  readonly #transport: Transport;

  /** Builds the tool; see {@link WebFetchOptions}. */
  constructor(options: WebFetchOptions = {}) {
    super();
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxBytes = options.maxBytes ?? MAX_FETCH_BYTES;
    this.#maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
    this.#resolver = options.resolver ?? denoResolver;
    this.#policy = options.policy ?? publicAddressPolicy;
    this.#firstHopPolicy = options.firstHopPolicy ?? this.#policy;
    this.#transport = options.transport ?? pinnedTransport({ caCerts: options.caCerts });
  }

  /** Fetches `args.url`; a refusal or failure comes back as one sentence the model can read. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const parsed = ArgsSchema.safeParse(args ?? {});
    const url = parsed.success ? parsed.data.url?.trim() : undefined;
    if (!url) throw new Error("'web_fetch' needs a 'url' to fetch.");

    const deadline = AbortSignal.timeout(this.#timeoutMs);
    const signal = context?.signal ? AbortSignal.any([deadline, context.signal]) : deadline;
    let response: HttpResponse | null = null;
    try {
      const fetched = await this.#walk(url, signal);
      response = fetched.response;
      return await this.#render(fetched.url, fetched.response);
    } catch (error) {
      if (error instanceof FetchRefusal) context?.reportOutcome?.("refused");
      return this.#failure(url, error, deadline, signal);
    } finally {
      response?.close();
    }
  }

  /** Follows redirects by hand, validating every hop before it is dialled. */
  async #walk(text: string, signal: AbortSignal): Promise<{ url: URL; response: HttpResponse }> {
    let current = parseTargetUrl(text);
    for (let hop = 0;; hop++) {
      const policy = hop === 0 ? this.#firstHopPolicy : this.#policy;
      const target = await atHop(hop, current, () => {
        allowedHost(current);
        return checkTarget(current, { resolver: this.#resolver, policy, signal });
      });
      const response = await this.#transport({ target, headers: requestHeaders(), signal });
      if (!REDIRECT_STATUSES.has(response.status)) return { url: current, response };

      // A redirect's body is never read: only its Location matters.
      const location = response.headers.get("location");
      response.close();
      if (!location) throw new FetchRefusal("the server sent a redirect with no location.");
      if (hop >= this.#maxRedirects) {
        throw new FetchRefusal(`too many redirects (more than ${this.#maxRedirects}).`);
      }
      const from = current;
      current = await atHop(hop + 1, location, () => parseTargetUrl(location, from));
    }
  }

  /** Turns the final response into text for the model. */
  async #render(url: URL, response: HttpResponse): Promise<string> {
    if (response.status >= 400) {
      return `The server returned HTTP ${response.status} for ${url.href}. Nothing to read.`;
    }
    const contentType = response.headers.get("content-type");
    const type = mediaType(contentType);
    if (!isTextType(type)) return describeBinary(url, type, response.headers);

    const { bytes, truncated } = await readCapped(
      decodeContent(response.body, response.headers),
      this.#maxBytes,
    );
    const html = isHtmlType(type);
    let text = new TextDecoder(charsetOf(contentType, bytes, html)).decode(bytes);
    // A cap can split a multi-byte character; its replacement mark is noise, not content.
    if (truncated) text = text.replace(/\ufffd+$/, "");
    if (html) {
      // The text layer and its entity decoder load with the first page, not with the tool.
      const { htmlToText } = await lazyImport<typeof import("./net/html_text.ts")>(
        "lib/tools/net/html_text.ts",
      );
      const page = htmlToText(text);
      text = page.title ? `Title: ${page.title}\n\n${page.text}` : page.text;
    }
    text = text.trim();

    let header = `Fetched ${url.href} (${type}):`;
    if (truncated) header += `\n(truncated at ${this.#maxBytes} bytes)`;
    return `${header}\n\n${text || "(the page had no readable text.)"}`;
  }

  /** The reference's two error shapes: refused/invalid ⇒ "fetch", transport ⇒ "reach". */
  #failure(url: string, error: unknown, deadline: AbortSignal, signal: AbortSignal): string {
    if (error instanceof FetchRefusal) return `Couldn't fetch ${pyRepr(url)}: ${error.message}`;
    if (deadline.aborted) {
      return `Couldn't reach ${pyRepr(url)}: timed out after ${seconds(this.#timeoutMs)}.`;
    }
    if (signal.aborted) return `Couldn't reach ${pyRepr(url)}: the fetch was cancelled.`;
    const why = errorMessage(error);
    return `Couldn't reach ${pyRepr(url)}: ${why}`;
  }
}

/**
 * The host rules (docs/security.md#host-rules), on top of the address fence: a host they do not
 * allow is refused before it is resolved, in words the model can act on.
 */
function allowedHost(url: URL): void {
  try {
    fenceCheck("web_fetch", url);
  } catch (error) {
    if (!(error instanceof HostNotAllowedError)) throw error;
    throw new FenceRefusal(
      `'${error.host}' is not among the hosts this agent may reach (its operator's host rules)`,
    );
  }
}

/** Runs one hop's check, naming the hop in a refusal so the model sees where it stopped. */
async function atHop<T>(hop: number, where: string | URL, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (hop === 0 || !(error instanceof FetchRefusal)) throw error;
    const href = typeof where === "string" ? where : where.href;
    const reason = error instanceof FenceRefusal ? `${error.reason}.` : error.message;
    throw new FetchRefusal(`redirect ${hop} (to ${href}) was refused: ${reason}`);
  }
}

function requestHeaders(): Record<string, string> {
  return {
    "User-Agent": USER_AGENT,
    Accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
    // Decoding is supported (gzip, deflate, br), but identity keeps the byte cap honest.
    "Accept-Encoding": "identity",
    Connection: "close",
  };
}

function describeBinary(url: URL, type: string, headers: Headers): string {
  const length = headers.get("content-length");
  const size = length !== null && /^\d+$/.test(length.trim()) && !headers.has("content-encoding")
    ? `${Number(length)} bytes`
    : "size unknown";
  return `${url.href} is ${type || "an unknown type"} (not text; ${size}) — described, not ` +
    "fetched into context. Use a tool suited to that file type if you need its contents.";
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
