/** Shared test scaffolding: an in-process sandbox on port 0 and a tiny raw-fetch client. */
import { ADMIN_TOKEN_HEADER, Sandbox, type SandboxOptions } from "../../lib/sandbox/mod.ts";

/** A parsed response. */
export interface Reply {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any -- tests poke at arbitrary JSON
  body: any;
  text: string;
}

/** A raw HTTP client acting as one user (or anonymously). */
export class Client {
  /**
   * @param base the sandbox's base URL.
   * @param token a platform token, sent as a bearer token.
   * @param extra headers sent on every request (the admin client's `Sandbox-Admin-Token`).
   */
  constructor(
    readonly base: string,
    readonly token?: string,
    readonly extra: Record<string, string> = {},
  ) {}

  /** Sends a request; JSON bodies are serialised, FormData/strings/bytes pass through. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const h: Record<string, string> = { accept: "application/json", ...this.extra, ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || typeof body === "string" || body instanceof Uint8Array) {
      payload = body as BodyInit;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    if (/json/.test(res.headers.get("content-type") ?? "") && text !== "") {
      parsed = JSON.parse(text);
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path: string): Promise<Reply> {
    return this.request("GET", path);
  }
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply> {
    return this.request("POST", path, body, headers);
  }
  patch(path: string, body?: unknown): Promise<Reply> {
    return this.request("PATCH", path, body);
  }
  delete(path: string): Promise<Reply> {
    return this.request("DELETE", path);
  }
}

/** A user made through the admin route, with a client acting as them. */
export interface Peer {
  uuid: string;
  handle: string;
  token: string;
  api: Client;
}

/** The running sandbox plus conveniences. */
export interface Harness {
  sandbox: Sandbox;
  base: string;
  admin: Client;
  anon: Client;
  /** Creates a user via `POST /_sandbox/users`. */
  user(handle: string, kind?: "human" | "ai", extra?: Record<string, unknown>): Promise<Peer>;
  /** Creates a timeline owned by `owner`; returns its uuid. */
  timeline(owner: Peer, name?: string): Promise<string>;
  /** Makes `a` and `b` trust each other. */
  mutual(a: Peer, b: Peer): Promise<void>;
}

/** Runs `fn` against a fresh in-memory sandbox, always closing it. */
export async function withSandbox(
  fn: (h: Harness) => Promise<void>,
  options: SandboxOptions = {},
): Promise<void> {
  const sandbox = await Sandbox.start(options);
  const base = sandbox.baseUrl;
  const admin = new Client(base, undefined, { [ADMIN_TOKEN_HEADER]: sandbox.adminToken });
  const h: Harness = {
    sandbox,
    base,
    admin,
    anon: new Client(base),
    async user(handle, kind = "human", extra = {}) {
      const r = await admin.post("/_sandbox/users", { handle, name: handle, kind, ...extra });
      if (r.status !== 201) throw new Error(`user ${handle}: ${r.status} ${r.text}`);
      return {
        uuid: r.body.user.uuid,
        handle,
        token: r.body.token,
        api: new Client(base, r.body.token),
      };
    },
    async timeline(owner, name = "t") {
      const r = await owner.api.post("/timelines", { timeline: { name } });
      if (r.status !== 201) throw new Error(`timeline: ${r.status} ${r.text}`);
      return r.body.timeline.uuid;
    },
    async mutual(a, b) {
      await a.api.post(`/users/${b.uuid}/trust`);
      await b.api.post(`/users/${a.uuid}/trust`);
    },
  };
  try {
    await fn(h);
  } finally {
    await sandbox.close();
  }
}

/** Asserts a problem+json answer with the given status and code; returns the body. */
export function expectProblem(reply: Reply, status: number, code: string): Reply["body"] {
  const type = reply.headers.get("content-type") ?? "";
  if (reply.status !== status || !type.startsWith("application/problem+json")) {
    throw new Error(`expected ${status} problem+json, got ${reply.status} ${type}: ${reply.text}`);
  }
  for (const field of ["type", "title", "status", "code", "detail", "instance"]) {
    if (!(field in reply.body)) throw new Error(`problem lacks ${field}: ${reply.text}`);
  }
  if (reply.body.code !== code) throw new Error(`expected code ${code}, got ${reply.text}`);
  if (reply.body.status !== status) throw new Error(`status field mismatch: ${reply.text}`);
  return reply.body;
}
