/**
 * Contract-test scaffolding: a real in-process sandbox on port 0 and real PlatformClients
 * acting as its users. Only the sandbox's own `/_sandbox` admin surface is driven with raw
 * fetch, because the platform client (rightly) does not know it.
 */
import { strict as assert } from "node:assert";
import {
  PlatformClient,
  type PlatformClientOptions,
  PlatformError,
} from "../../lib/platform/mod.ts";
import {
  ADMIN_TOKEN_HEADER,
  Sandbox,
  type SandboxEvent,
  type SandboxOptions,
} from "../../lib/sandbox/mod.ts";

/** The password every contract-test user is created with (meets the platform's rules). */
export const PASSWORD = "Contract-Passw0rd!";

/** A sandbox user and a client acting as them. */
export interface Peer {
  readonly uuid: string;
  readonly handle: string;
  readonly email: string;
  /** The token the admin route handed out. */
  readonly token: string;
  /** A client using that token. */
  readonly client: PlatformClient;
}

/** Extra fields for `POST /_sandbox/users`. */
export interface UserExtras {
  readonly kind?: "human" | "ai";
  readonly roles?: string[];
  readonly suspended?: boolean;
  readonly max_pending_tasks?: number;
}

/** One running sandbox and conveniences around it. */
export interface Contract {
  readonly sandbox: Sandbox;
  readonly baseUrl: string;
  /** Creates a user with email `<handle>@example.com` and {@link PASSWORD}. */
  user(handle: string, extras?: UserExtras): Promise<Peer>;
  /** A client for the sandbox with the given credentials. */
  client(options: PlatformClientOptions): PlatformClient;
  /** Makes `a` and `b` trust each other, through the client. */
  mutual(a: Peer, b: Peer): Promise<void>;
  /** `POST /_sandbox/faults`. */
  fault(spec: Record<string, unknown>): Promise<void>;
  /** `GET /_sandbox/events`. */
  events(): Promise<SandboxEvent[]>;
  /** `POST /_sandbox/tasks/{uuid}/activate`; returns the HTTP status. */
  activate(task: string): Promise<number>;
  /** `POST /_sandbox/contact_messages`; returns the new contact message's uuid. */
  contactMessage(body: Record<string, unknown>): Promise<string>;
  /** How many requests the sandbox has served for `method` on paths matching `path`. */
  count(method: string, path: RegExp): number;
}

async function admin(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { [ADMIN_TOKEN_HEADER]: sandbox.adminToken };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${sandbox.adminUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** Runs `fn` against a fresh in-memory sandbox, always closing it. */
export async function withContract(
  fn: (c: Contract) => Promise<void>,
  options: SandboxOptions = {},
): Promise<void> {
  const sandbox = await Sandbox.start({ port: 0, ...options });
  const baseUrl = sandbox.baseUrl;
  const client = (opts: PlatformClientOptions) => new PlatformClient({ baseUrl, ...opts });
  const c: Contract = {
    sandbox,
    baseUrl,
    client,
    async user(handle, extras = {}) {
      const email = `${handle}@example.com`;
      const r = await admin(sandbox, "POST", "/users", {
        handle,
        name: handle.charAt(0).toUpperCase() + handle.slice(1),
        kind: extras.kind ?? "human",
        email,
        password: PASSWORD,
        ...extras,
      });
      assert.equal(r.status, 201, `creating @${handle}: ${JSON.stringify(r.body)}`);
      return {
        uuid: r.body.user.uuid,
        handle,
        email,
        token: r.body.token,
        client: client({ token: r.body.token }),
      };
    },
    async mutual(a, b) {
      await a.client.users.grantTrust(b.uuid);
      await b.client.users.grantTrust(a.uuid);
    },
    async fault(spec) {
      const r = await admin(sandbox, "POST", "/faults", spec);
      assert.equal(r.status, 201, `fault: ${JSON.stringify(r.body)}`);
    },
    async events() {
      return (await admin(sandbox, "GET", "/events")).body.events;
    },
    async activate(task) {
      return (await admin(sandbox, "POST", `/tasks/${task}/activate`)).status;
    },
    async contactMessage(body) {
      const r = await admin(sandbox, "POST", "/contact_messages", body);
      assert.equal(r.status, 201, `contact message: ${JSON.stringify(r.body)}`);
      return r.body.contact_message.uuid;
    },
    count(method, path) {
      return sandbox.requests.filter((r) => r.method === method && path.test(r.path)).length;
    },
  };
  try {
    await fn(c);
  } finally {
    await sandbox.close();
  }
}

/**
 * Awaits a call that must fail with `type` (and `code`, when given); returns the error so the
 * caller can assert more.
 */
export async function expectError<E extends PlatformError>(
  call: Promise<unknown>,
  // deno-lint-ignore no-explicit-any -- error classes take varying constructor arguments
  type: new (...args: any[]) => E,
  code?: string,
): Promise<E> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) throw new assert.AssertionError({ message: `expected ${type.name}` });
  if (!(caught instanceof type)) {
    throw new assert.AssertionError({
      message: `expected ${type.name}${code ? ` ${code}` : ""}, got ${String(caught)}`,
    });
  }
  if (code !== undefined) assert.equal(caught.code, code, String(caught));
  return caught;
}
