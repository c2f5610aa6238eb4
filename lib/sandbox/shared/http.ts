/**
 * A small method+path router and the request helpers every route uses: bounded body reading,
 * JSON parsing that fails as problem+json, and enveloped JSON responses.
 */
import type * as z from "../../base/zod.ts";
import { type FieldErrors, Problem, validationFailed } from "./problem.ts";
import type { SandboxLimits, SandboxState, SessionRow, UserRow } from "./state.ts";
import { concatBytes } from "../../base/bytes.ts";
import { BodyTooLargeError } from "./body_limit.ts";

/** What an unauthenticated handler receives. */
export interface RequestContext {
  readonly req: Request;
  readonly url: URL;
  /** Path parameters, e.g. `{ uuid: "…" }` for `/timelines/:uuid`. */
  readonly params: Readonly<Record<string, string>>;
  readonly state: SandboxState;
  /** The peer's IP address, when known. */
  readonly remoteAddr: string | null;
}

/** What an authenticated handler receives: the caller and the credential used. */
export interface AuthedContext extends RequestContext {
  readonly user: UserRow;
  readonly session: SessionRow;
}

/** A route handler. */
export type Handler<C extends RequestContext> = (ctx: C) => Response | Promise<Response>;

/**
 * A route's request-body ceiling: one of the sandbox's {@link SandboxLimits} by name, or a
 * number of bytes. The server refuses a body over it before the handler runs (a declared
 * length) or while the handler reads it (a chunked one).
 */
export type BodyLimit = keyof SandboxLimits | number;

/** Options a route is registered with. */
export interface RouteOptions {
  /** The body ceiling; `jsonBytes` when absent. */
  readonly body?: BodyLimit;
}

/** A registered route. */
export type Route =
  | {
    method: string;
    pattern: RegExp;
    keys: string[];
    body: BodyLimit;
    auth: false;
    handler: Handler<RequestContext>;
  }
  | {
    method: string;
    pattern: RegExp;
    keys: string[];
    body: BodyLimit;
    auth: true;
    handler: Handler<AuthedContext>;
  };

/** A route's body ceiling in bytes, under the sandbox's limits. */
export function bodyLimitOf(route: Route, limits: SandboxLimits): number {
  return typeof route.body === "number" ? route.body : limits[route.body];
}

/** The outcome of matching a request against the table. */
export type Match =
  | { kind: "route"; route: Route; params: Record<string, string> }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "none" };

/** A route table. Paths use `:name` segments. */
export class RouteTable {
  readonly #routes: Route[] = [];

  /** Adds a route reachable without a token. */
  public(
    method: string,
    path: string,
    handler: Handler<RequestContext>,
    options: RouteOptions = {},
  ): this {
    const body = options.body ?? "jsonBytes";
    this.#routes.push({ method, ...compile(path), body, auth: false, handler });
    return this;
  }

  /** Adds a route that requires `Authorization: Bearer <token>`. */
  authed(
    method: string,
    path: string,
    handler: Handler<AuthedContext>,
    options: RouteOptions = {},
  ): this {
    const body = options.body ?? "jsonBytes";
    this.#routes.push({ method, ...compile(path), body, auth: true, handler });
    return this;
  }

  /** Finds the route for a request. */
  match(method: string, pathname: string): Match {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.keys.forEach((key, i) => params[key] = decodeURIComponent(found[i + 1]));
      return { kind: "route", route, params };
    }
    return allowed.length > 0 ? { kind: "wrong-method", allowed } : { kind: "none" };
  }
}

function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path.split("/").map((segment) => {
    if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    keys.push(segment.slice(1));
    return "([^/]+)";
  }).join("/");
  return { pattern: new RegExp(`^${source}$`), keys };
}

/** A JSON response (the platform's envelopes are built by the caller). */
export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** `204 No Content`. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/**
 * Reads the whole body, refusing more than `limit` bytes with `413 payload_too_large` — both a
 * declared Content-Length over the limit and a chunked body that grows past it.
 */
export async function readBody(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    // The server's own ceiling (lib/sandbox/shared/body_limit.ts) may cut the stream first.
    if (error instanceof BodyTooLargeError) throw tooLarge(error.limit);
    throw error;
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks);
}

/** `413 payload_too_large` for a body over `limit` bytes. */
export function tooLarge(limit: number): Problem {
  return new Problem(413, "payload_too_large", `The request body exceeds ${limit} bytes.`);
}

/**
 * Parses the JSON body (an empty body reads as `{}`, which is what verb endpoints send). A body
 * must be declared `application/json` (or a `+json` type): a form or `text/plain` body is what a
 * cross-site "simple" request sends, so it is refused even before its origin is judged.
 * @throws {Problem} 400 for malformed JSON, 413 for an oversized body, 415 for a body that is
 *   not declared JSON.
 */
export async function readJson(ctx: RequestContext): Promise<unknown> {
  const bytes = await readBody(ctx.req, ctx.state.limits.jsonBytes);
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return {};
  if (!isJsonType(ctx.req.headers.get("content-type"))) {
    throw new Problem(
      415,
      "unsupported_media_type",
      "Send the request body as JSON, with Content-Type: application/json.",
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Problem(400, "bad_request", "The request body is not valid JSON.");
  }
}

/** Whether a `Content-Type` value declares JSON (`application/json` or `application/…+json`). */
function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Validates a parsed body against a schema; failures become `422 validation_failed` with one
 * entry per offending attribute (named by its last path segment, Rails-style).
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = [...issue.path].reverse().find((p) => typeof p === "string") ?? "base";
    (errors[key as string] ??= []).push(issue.message);
  }
  throw validationFailed(errors);
}
