import assert from "node:assert/strict";
import { json, problem, type Recorded, startStub } from "../support/http_stub.ts";
import {
  ConfigurationError,
  PlatformClient,
  PlatformError,
  UnauthorizedError,
} from "../../lib/platform/mod.ts";
import { USER_AGENT } from "../../lib/base/version.ts";
import { session, subjectUser } from "./fixtures.ts";

const PASSWORD = "s3cret-Passw0rd!";
const EMAIL = "vega@example.com";

/**
 * A platform that mints `bc_uat_<n>` tokens and accepts only tokens in `live`. Tests revoke
 * tokens by editing `live`.
 */
function platform(options: { mintStatus?: number } = {}) {
  let minted = 0;
  const live = new Set<string>();
  const handler = (rec: Recorded) => {
    if (rec.method === "POST" && rec.path === "/session") {
      if (options.mintStatus === 401) {
        return problem(401, "invalid_credentials", "Email or password is incorrect.");
      }
      const token = `bc_uat_minted${++minted}`;
      live.add(token);
      return json({
        token,
        session: session(minted, { current: true }),
        start_here: "https://basecradle.com/users/dashboard.md",
      }, 201);
    }
    const token = rec.headers.get("authorization")?.replace(/^Bearer /, "");
    if (token === undefined || !live.has(token)) {
      return problem(401, "unauthorized", "The token is missing, invalid or revoked.");
    }
    return json({ identity: subjectUser() });
  };
  return { handler, live, mintCount: () => minted };
}

Deno.test("a configured token rides as a Bearer header with Accept and User-Agent", async () => {
  const p = platform();
  p.live.add("bc_uat_given");
  await using stub = await startStub(p.handler);
  const client = new PlatformClient({ baseUrl: stub.url, token: "bc_uat_given" });
  await client.users.dashboard();
  const h = stub.requests[0].headers;
  assert.equal(h.get("authorization"), "Bearer bc_uat_given");
  assert.equal(h.get("accept"), "application/json");
  assert.equal(h.get("user-agent"), USER_AGENT);
  assert.equal(p.mintCount(), 0);
});

Deno.test("email+password mints once, lazily, shared by concurrent calls", async () => {
  const p = platform();
  await using stub = await startStub(p.handler);
  const minted: string[] = [];
  const client = new PlatformClient({
    baseUrl: stub.url,
    email: EMAIL,
    password: PASSWORD,
    sessionName: "vega runtime",
    onTokenMinted: (t) => {
      minted.push(t);
    },
  });
  assert.equal(stub.requests.length, 0, "nothing is sent before the first call");
  await Promise.all([client.users.dashboard(), client.users.dashboard(), client.users.dashboard()]);
  await client.users.dashboard();
  assert.equal(p.mintCount(), 1);
  assert.deepEqual(minted, ["bc_uat_minted1"]);
  const mint = stub.requests[0];
  assert.equal(mint.path, "/session");
  assert.equal(mint.headers.get("authorization"), null, "minting is unauthenticated");
  assert.deepEqual(mint.json(), { email_address: EMAIL, password: PASSWORD, name: "vega runtime" });
  for (const rec of stub.requests.slice(1)) {
    assert.equal(rec.headers.get("authorization"), "Bearer bc_uat_minted1");
  }
});

Deno.test("a revoked token is re-minted once and the call retried once", async () => {
  const p = platform();
  await using stub = await startStub(p.handler);
  const client = new PlatformClient({ baseUrl: stub.url, email: EMAIL, password: PASSWORD });
  await client.users.dashboard();
  p.live.clear();
  const dash = await client.users.dashboard();
  assert.equal(dash.identity.handle, "vega");
  assert.equal(p.mintCount(), 2);
  const paths = stub.requests.map((r) => `${r.method} ${r.path} ${r.headers.get("authorization")}`);
  assert.deepEqual(paths, [
    "POST /session null",
    "GET /users/dashboard Bearer bc_uat_minted1",
    "GET /users/dashboard Bearer bc_uat_minted1",
    "POST /session null",
    "GET /users/dashboard Bearer bc_uat_minted2",
  ]);
});

Deno.test("a configured token that dies is replaced by minting when email+password are set", async () => {
  const p = platform();
  await using stub = await startStub(p.handler);
  const client = new PlatformClient({
    baseUrl: stub.url,
    token: "bc_uat_dead",
    email: EMAIL,
    password: PASSWORD,
  });
  await client.users.dashboard();
  assert.equal(p.mintCount(), 1);
  assert.equal(stub.requests.at(-1)?.headers.get("authorization"), "Bearer bc_uat_minted1");
});

Deno.test("a second 401 after re-minting propagates; no third attempt", async () => {
  let mints = 0;
  await using stub = await startStub((rec) => {
    if (rec.path === "/session") return json({ token: `bc_uat_t${++mints}` }, 201);
    return problem(401, "unauthorized", "Nope.");
  });
  const client = new PlatformClient({ baseUrl: stub.url, email: EMAIL, password: PASSWORD });
  await assert.rejects(client.users.dashboard(), UnauthorizedError);
  assert.equal(mints, 2, "one initial mint, one re-mint");
  assert.equal(stub.requests.filter((r) => r.path === "/users/dashboard").length, 2);
});

Deno.test("a token-only client does not re-mint; the 401 propagates", async () => {
  const p = platform();
  await using stub = await startStub(p.handler);
  const client = new PlatformClient({ baseUrl: stub.url, token: "bc_uat_dead" });
  const err = await client.users.dashboard().catch((e) => e);
  assert.ok(err instanceof UnauthorizedError);
  assert.equal(err.code, "unauthorized");
  assert.equal(stub.requests.length, 1);
});

Deno.test("a 401 with another code (invalid_signature) is never healed by minting", async () => {
  let mints = 0;
  await using stub = await startStub((rec) => {
    if (rec.path === "/session") return json({ token: `bc_uat_t${++mints}` }, 201);
    return problem(401, "invalid_signature", "Bad signature.");
  });
  const client = new PlatformClient({ baseUrl: stub.url, email: EMAIL, password: PASSWORD });
  const err = await client.users.dashboard().catch((e) => e);
  assert.ok(err instanceof UnauthorizedError);
  assert.equal(err.code, "invalid_signature");
  assert.equal(mints, 1);
});

Deno.test("wrong credentials surface as invalid_credentials without the password", async () => {
  const p = platform({ mintStatus: 401 });
  await using stub = await startStub(p.handler);
  const client = new PlatformClient({ baseUrl: stub.url, email: EMAIL, password: PASSWORD });
  const err = await client.timelines.get("x").catch((e) => e);
  assert.ok(err instanceof UnauthorizedError);
  assert.equal(err.code, "invalid_credentials");
  assert.equal(err.endpoint, "POST /session");
  assert.ok(!err.message.includes(PASSWORD));
  assert.ok(!Deno.inspect(err, { depth: 10 }).includes(PASSWORD));
});

Deno.test("the password never appears when the client is inspected", () => {
  const client = new PlatformClient({
    email: EMAIL,
    password: PASSWORD,
    token: "bc_uat_secret",
  });
  const shown = Deno.inspect(client, { depth: 10, showHidden: true }) + String(client) +
    JSON.stringify(client);
  assert.ok(!shown.includes(PASSWORD));
  assert.ok(!shown.includes("bc_uat_secret"));
  assert.match(Deno.inspect(client), /email\+password/);
});

Deno.test("session.mint omits name when not given and returns token, session, start_here", async () => {
  await using stub = await startStub(() =>
    json({
      token: "bc_uat_x",
      session: session(1, { current: true }),
      start_here: "https://basecradle.com/users/dashboard.md",
    }, 201)
  );
  const client = new PlatformClient({ baseUrl: stub.url });
  const minted = await client.session.mint({ emailAddress: EMAIL, password: PASSWORD });
  assert.equal(minted.token, "bc_uat_x");
  assert.equal(minted.session?.current, true);
  assert.equal(minted.start_here, "https://basecradle.com/users/dashboard.md");
  assert.deepEqual(stub.requests[0].json(), { email_address: EMAIL, password: PASSWORD });
});

Deno.test("session.mint accepts the older {name, created_at} session shape", async () => {
  await using stub = await startStub(() =>
    json(
      { token: "bc_uat_x", session: { name: null, created_at: "2026-05-14T09:00:00.000Z" } },
      201,
    )
  );
  const minted = await new PlatformClient({ baseUrl: stub.url }).session.mint({
    emailAddress: EMAIL,
    password: PASSWORD,
  });
  assert.equal(minted.token, "bc_uat_x");
  assert.equal(minted.session?.uuid, undefined);
});

Deno.test("a mint response without a token is malformed and does not echo the body", async () => {
  await using stub = await startStub(() => json({ session: {}, note: PASSWORD }, 201));
  const err = await new PlatformClient({ baseUrl: stub.url }).session
    .mint({ emailAddress: EMAIL, password: PASSWORD }).catch((e) => e);
  assert.ok(err instanceof PlatformError);
  assert.equal(err.name, "MalformedResponseError");
  assert.ok(!err.message.includes(PASSWORD));
});

Deno.test("signOut sends DELETE /session with the bearer token", async () => {
  await using stub = await startStub(() => new Response(null, { status: 204 }));
  await new PlatformClient({ baseUrl: stub.url, token: "bc_uat_a" }).session.signOut();
  assert.equal(stub.requests[0].method, "DELETE");
  assert.equal(stub.requests[0].path, "/session");
  assert.equal(stub.requests[0].headers.get("authorization"), "Bearer bc_uat_a");
});

Deno.test("an authenticated call without credentials fails before sending", async () => {
  await using stub = await startStub(() => json({}));
  const err = await new PlatformClient({ baseUrl: stub.url }).users.dashboard().catch((e) => e);
  assert.ok(err instanceof ConfigurationError);
  assert.equal(stub.requests.length, 0);
});

Deno.test("email without password is a configuration error naming the gap", () => {
  assert.throws(
    () => new PlatformClient({ email: EMAIL }),
    (e: unknown) =>
      e instanceof ConfigurationError && /both an email and a password/.test(e.message),
  );
});
