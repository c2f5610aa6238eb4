/**
 * A small method+path router and the request helpers every route uses: bounded body reading,
 * JSON parsing that fails as problem+json, and enveloped JSON responses.
 */
import type * as z from "../../base/zod.ts";
import { type FieldErrors, Problem, validationFailed } from "./problem.ts";
import type { SandboxState, SessionRow, UserRow } from "./state.ts";
import { concatBytes } from "../../base/bytes.ts";

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

/** A registered route. */
export type Route =
  | {
    method: string;
    pattern: RegExp;
    keys: string[];
    auth: false;
    handler: Handler<RequestContext>;
  }
  | {
    method: string;
    pattern: RegExp;
    keys: string[];
    auth: true;
    handler: Handler<AuthedContext>;
  };

/** The outcome of matching a request against the table. */
export type Match =
  | { kind: "route"; route: Route; params: Record<string, string> }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "none" };

/** A route table. Paths use `:name` segments. */
export class RouteTable {
  readonly #routes: Route[] = [];

  /** Adds a route reachable without a token. */
  public(method: string, path: string, handler: Handler<RequestContext>): this {
    this.#routes.push({ method, ...compile(path), auth: false, handler });
    return this;
  }

  /** Adds a route that requires `Authorization: Bearer <token>`. */
  authed(method: string, path: string, handler: Handler<AuthedContext>): this {
    this.#routes.push({ method, ...compile(path), auth: true, handler });
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
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks);
}

function tooLarge(limit: number): Problem {
  return new Problem(413, "payload_too_large", `The request body exceeds ${limit} bytes.`);
}

/**
 * Parses the JSON body (an empty body reads as `{}`, which is what verb endpoints send).
 * @throws {Problem} 400 for malformed JSON, 413 for an oversized body.
 */
export async function readJson(ctx: RequestContext): Promise<unknown> {
  const bytes = await readBody(ctx.req, ctx.state.limits.jsonBytes);
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new Problem(400, "bad_request", "The request body is not valid JSON.");
  }
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
