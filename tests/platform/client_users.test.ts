import assert from "node:assert/strict";
import { json, noContent, routes, startStub } from "../support/http_stub.ts";
import { MalformedResponseError, NotFoundError } from "../../lib/platform/mod.ts";
import { USER_AGENT } from "../../lib/base/version.ts";
import { ada, clientFor, session, subjectUser, TOKEN, u, vega } from "./fixtures.ts";

const FULL_DASHBOARD = {
  identity: subjectUser({ time_zone: "UTC", integration_url: null, creator: null }),
  environment: {
    name: "BaseCradle",
    summary: "A place where humans and AI are equal peers.",
    you_are: "a first-class peer here, not a tool.",
    concepts_url: "https://basecradle.com/docs/api.md#concepts",
  },
  interaction: { timelines: { url: "https://basecradle.com/timelines.json", count: 2 } },
  account: { sessions_url: "https://basecradle.com/users/sessions.json" },
  documentation: {
    user_guide: "https://basecradle.com/docs/user_guide.md",
    api: "https://basecradle.com/docs/api.md",
    sdks: { python: { repository: "https://github.com/basecradle/basecradle-python" } },
  },
};

Deno.test("users.dashboard parses the full current dashboard", async () => {
  await using stub = await startStub(() => json(FULL_DASHBOARD));
  const dash = await clientFor(stub.url).users.dashboard();
  assert.equal(dash.identity.uuid, vega.uuid);
  assert.equal(dash.identity.handle, "vega");
  assert.equal(dash.environment?.you_are, "a first-class peer here, not a tool.");
  assert.equal(dash.documentation?.api, "https://basecradle.com/docs/api.md");
  assert.equal(stub.requests[0].path, "/users/dashboard");
});

Deno.test("users.dashboard accepts an identity-only (older, minimal) dashboard", async () => {
  await using stub = await startStub(() => json({ identity: { ...vega } }));
  const dash = await clientFor(stub.url).users.dashboard();
  assert.equal(dash.identity.kind, "ai");
  assert.equal(dash.environment, undefined);
});

Deno.test("users.dashboard without identity.uuid is malformed", async () => {
  await using stub = await startStub(() => json({ identity: { handle: "vega" } }));
  const err = await clientFor(stub.url).users.dashboard().catch((e) => e);
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "identity.uuid");
  assert.equal(err.endpoint, "GET /users/dashboard");
});

Deno.test("users.dashboardMarkdown returns text, sent with the bearer token", async () => {
  await using stub = await startStub(() =>
    new Response("# Start here\n\nYou are a peer.", {
      headers: { "content-type": "text/markdown; charset=utf-8" },
    })
  );
  const md = await clientFor(stub.url).users.dashboardMarkdown();
  assert.equal(md, "# Start here\n\nYou are a peer.");
  const h = stub.requests[0].headers;
  assert.equal(stub.requests[0].path, "/users/dashboard.md");
  assert.equal(h.get("authorization"), `Bearer ${TOKEN}`);
  assert.equal(h.get("accept"), "application/json");
  assert.equal(h.get("user-agent"), USER_AGENT);
});

Deno.test("users.list is one unpaginated call", async () => {
  const rows = [
    { ...ada, trust: { you_trust: true, trusts_you: false, mutual: false } },
    { ...vega, trust: { you_trust: true, trusts_you: true, mutual: true } },
  ];
  await using stub = await startStub(() => json({ users: rows }));
  const users = await clientFor(stub.url).users.list();
  assert.deepEqual(users.map((x) => [x.handle, x.trust?.mutual]), [["ada", false], ["vega", true]]);
  assert.equal(stub.requests.length, 1);
  assert.equal(stub.requests[0].query.has("before"), false);
});

Deno.test("users.get, grantTrust and revokeTrust", async () => {
  await using stub = await startStub(routes({
    [`GET /users/${vega.uuid}`]: () => json({ user: subjectUser() }),
    [`POST /users/${vega.uuid}/trust`]: () => json({ user: subjectUser() }, 201),
    [`DELETE /users/${vega.uuid}/trust`]: () => noContent(),
  }));
  const users = clientFor(stub.url).users;
  assert.equal((await users.get(vega.uuid)).max_timelines, 15);
  assert.equal((await users.grantTrust(vega.uuid)).trust?.you_trust, true);
  await users.revokeTrust(vega.uuid);
  assert.deepEqual(stub.requests.map((r) => `${r.method} ${r.path} ${r.body.length}`), [
    `GET /users/${vega.uuid} 0`,
    `POST /users/${vega.uuid}/trust 0`,
    `DELETE /users/${vega.uuid}/trust 0`,
  ]);
});

Deno.test("users.get 404 is a NotFoundError", async () => {
  await using stub = await startStub(routes({}));
  await assert.rejects(clientFor(stub.url).users.get(u(1)), NotFoundError);
});

Deno.test("sessions list, revoke, revokeAll", async () => {
  await using stub = await startStub(routes({
    "GET /users/sessions": () =>
      json({ sessions: [session(3, { current: true }), session(2)], next_cursor: null }),
    [`DELETE /users/sessions/${u(2)}`]: () => noContent(),
    "DELETE /users/sessions": () => noContent(),
  }));
  const sessions = clientFor(stub.url).sessions;
  const rows = await sessions.list().toArray();
  assert.deepEqual(rows.map((s) => [s.uuid, s.current]), [[u(3), true], [u(2), false]]);
  assert.equal((await sessions.page()).nextCursor, null);
  await sessions.revoke(u(2));
  await sessions.revokeAll();
  assert.deepEqual(stub.requests.slice(2).map((r) => `${r.method} ${r.path}`), [
    `DELETE /users/sessions/${u(2)}`,
    "DELETE /users/sessions",
  ]);
});

Deno.test("password.change sends the three fields and accepts 204 or a legacy 200", async () => {
  let legacy = false;
  await using stub = await startStub(() =>
    legacy ? json({ message: "Password updated successfully" }) : noContent()
  );
  const input = {
    currentPassword: "old-Passw0rd!",
    password: "new-Passw0rd!!",
    passwordConfirmation: "new-Passw0rd!!",
  };
  const client = clientFor(stub.url);
  await client.password.change(input);
  legacy = true;
  await client.password.change(input);
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, "PATCH /users/password");
  assert.deepEqual(rec.json(), {
    current_password: "old-Passw0rd!",
    password: "new-Passw0rd!!",
    password_confirmation: "new-Passw0rd!!",
  });
});
