import { strict as assert } from "node:assert";
import { Client, expectProblem, withSandbox } from "./helpers.ts";

Deno.test("a person is created, posts a message with its token and lists it", () =>
  withSandbox(async (h) => {
    const r = await h.admin.post("/_sandbox/users", {
      handle: "ada",
      name: "Ada L.",
      kind: "human",
    });
    assert.equal(r.status, 201);
    assert.deepEqual(Object.keys(r.body.user).sort(), ["handle", "kind", "name", "uuid"]);
    assert.match(r.body.token, /^bc_uat_[A-Za-z0-9]{32}$/);
    const ada = new Client(h.base, r.body.token);
    const t = await ada.post("/timelines", { timeline: { name: "Notes" } });
    assert.equal(t.status, 201);
    assert.deepEqual(t.body.items, []);
    assert.deepEqual(t.body.timeline.participants, []);
    assert.equal(t.body.timeline.owner.handle, "ada");
    const tl = t.body.timeline.uuid;
    const m = await ada.post(`/timelines/${tl}/messages`, { message: { body: "hello" } });
    assert.equal(m.status, 201);
    assert.equal(m.body.message.type, "message");
    assert.equal(m.body.message.content.body, "hello");
    assert.deepEqual(m.body.message.timeline, { uuid: tl });
    assert.equal(m.body.message.user.handle, "ada");
    assert.match(m.body.message.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = await ada.get(`/messages?timeline=${tl}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.messages.length, 1);
    assert.equal(list.body.messages[0].content.uuid, m.body.message.content.uuid);
    assert.equal(list.body.next_cursor, null);
    const one = await ada.get(`/messages/${m.body.message.content.uuid}`);
    assert.deepEqual(one.body.message, m.body.message);
    const tlGet = await ada.get(`/timelines/${tl}`);
    assert.equal(tlGet.body.items.length, 1);
  }));

Deno.test("auth: missing, unknown and revoked tokens are 401 unauthorized", () =>
  withSandbox(async (h) => {
    expectProblem(await h.anon.get("/users/dashboard"), 401, "unauthorized");
    expectProblem(await new Client(h.base, "bc_uat_nope").get("/timelines"), 401, "unauthorized");
    const ada = await h.user("ada");
    assert.equal((await ada.api.get("/users/dashboard")).status, 200);
    assert.equal((await ada.api.delete("/session")).status, 204);
    expectProblem(await ada.api.get("/users/dashboard"), 401, "unauthorized");
  }));

Deno.test("POST /session mints tokens; sessions list, revoke and revoke-all", () =>
  withSandbox(async (h) => {
    await h.user("ada", "human", { email: "ada@example.com", password: "Sup3r-secret-pw" });
    expectProblem(
      await h.anon.post("/session", { email_address: "ada@example.com", password: "wrong" }),
      401,
      "invalid_credentials",
    );
    const s = await h.anon.post("/session", {
      email_address: "ada@example.com",
      password: "Sup3r-secret-pw",
      name: "runtime",
    }, { "user-agent": "test-agent/1" });
    assert.equal(s.status, 201);
    assert.match(s.body.token, /^bc_uat_[A-Za-z0-9]{32}$/);
    assert.equal(s.body.session.current, true);
    assert.equal(s.body.session.last_used_at, null);
    assert.equal(s.body.session.kind, "api");
    assert.equal(s.body.session.name, "runtime");
    assert.match(s.body.start_here, /\/users\/dashboard\.md$/);
    const api = new Client(h.base, s.body.token);
    const list = await api.get("/users/sessions");
    assert.equal(list.body.sessions.length, 2);
    assert.equal(list.body.sessions.filter((x: { current: boolean }) => x.current).length, 1);
    assert.equal(list.body.next_cursor, null);
    const other = list.body.sessions.find((x: { current: boolean }) => !x.current);
    assert.equal((await api.delete(`/users/sessions/${other.uuid}`)).status, 204);
    expectProblem(await api.delete(`/users/sessions/${other.uuid}`), 404, "not_found");
    assert.equal((await api.get("/users/sessions")).body.sessions.length, 1);
    assert.equal((await api.delete("/users/sessions")).status, 204);
    expectProblem(await api.get("/users/sessions"), 401, "unauthorized");

    await h.user("sus", "human", {
      email: "s@example.com",
      password: "Sup3r-secret-pw",
      suspended: true,
    });
    expectProblem(
      await h.anon.post("/session", {
        email_address: "s@example.com",
        password: "Sup3r-secret-pw",
      }),
      403,
      "account_suspended",
    );
  }));

Deno.test("PATCH /users/password: rules, errors and 204", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada", "human", {
      email: "a@example.com",
      password: "Old-password-1",
    });
    const change = (current: string, password: string, confirmation = password) =>
      ada.api.patch("/users/password", {
        current_password: current,
        password,
        password_confirmation: confirmation,
      });
    expectProblem(await change("nope", "New-password-2"), 422, "current_password_incorrect");
    expectProblem(
      await change("Old-password-1", "New-password-2", "x"),
      422,
      "password_confirmation_mismatch",
    );
    const weak = expectProblem(await change("Old-password-1", "short"), 422, "validation_failed");
    assert.ok(weak.errors.password.length > 0);
    assert.equal((await change("Old-password-1", "New-password-2")).status, 204);
    // Signs nothing out.
    assert.equal((await ada.api.get("/users/dashboard")).status, 200);
    const s = await h.anon.post("/session", {
      email_address: "a@example.com",
      password: "New-password-2",
    });
    assert.equal(s.status, 201);
  }));

Deno.test("dashboard JSON and dashboard.md (markdown whatever Accept says)", () =>
  withSandbox(async (h) => {
    const vega = await h.user("vega", "ai");
    const d = await vega.api.get("/users/dashboard");
    assert.equal(d.status, 200);
    assert.equal(d.body.identity.uuid, vega.uuid);
    assert.equal(d.body.identity.kind, "ai");
    assert.deepEqual(d.body.identity.trust, { you_trust: true, trusts_you: true, mutual: true });
    assert.equal(d.body.identity.max_pending_tasks, 3);
    assert.ok("integration_url" in d.body.identity);
    for (const k of ["environment", "interaction", "account", "documentation"]) {
      assert.ok(k in d.body);
    }
    const md = await vega.api.get("/users/dashboard.md");
    assert.equal(md.status, 200);
    assert.match(md.headers.get("content-type")!, /^text\/markdown/);
    assert.match(md.text, /@vega/);
  }));

Deno.test("identity-only dashboard mode", () =>
  withSandbox(async (h) => {
    const vega = await h.user("vega", "ai");
    const d = await vega.api.get("/users/dashboard");
    assert.deepEqual(Object.keys(d.body), ["identity"]);
  }, { dashboard: "identity-only" }));

Deno.test("users directory, access tiers and trust", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const vega = await h.user("vega", "ai");
    await h.user("ghost", "ai", { visible: false });
    const dir = await ada.api.get("/users");
    assert.equal(dir.status, 200);
    assert.ok(!("next_cursor" in dir.body));
    assert.deepEqual(dir.body.users.map((u: { handle: string }) => u.handle), ["vega"]);
    assert.deepEqual(Object.keys(dir.body.users[0]).sort(), [
      "handle",
      "kind",
      "name",
      "trust",
      "uuid",
    ]);

    // A stranger sees only the base identity.
    let v = await ada.api.get(`/users/${vega.uuid}`);
    assert.equal(v.body.user.suspended, undefined);
    assert.deepEqual(v.body.user.trust, { you_trust: false, trusts_you: false, mutual: false });
    // Once vega trusts ada, ada sees the trusted-peer cluster, not the self cluster.
    const g = await vega.api.post(`/users/${ada.uuid}/trust`);
    assert.equal(g.status, 201);
    assert.equal(g.body.user.trust.you_trust, true);
    assert.equal((await vega.api.post(`/users/${ada.uuid}/trust`)).status, 201);
    v = await ada.api.get(`/users/${vega.uuid}`);
    assert.equal(v.body.user.suspended, false);
    assert.deepEqual(v.body.user.roles, []);
    assert.equal(v.body.user.integration_url, undefined);
    assert.deepEqual(v.body.user.trust, { you_trust: false, trusts_you: true, mutual: false });
    await ada.api.post(`/users/${vega.uuid}/trust`);
    assert.equal((await ada.api.get(`/users/${vega.uuid}`)).body.user.trust.mutual, true);
    assert.equal((await ada.api.delete(`/users/${vega.uuid}/trust`)).status, 204);
    assert.equal((await ada.api.delete(`/users/${vega.uuid}/trust`)).status, 204);
    assert.equal((await ada.api.get(`/users/${vega.uuid}`)).body.user.trust.mutual, false);
    expectProblem(
      await ada.api.get(`/users/0198c2a1-5e10-7a3c-9d21-4b7f0e6a1c01`),
      404,
      "not_found",
    );
    expectProblem(await ada.api.post(`/users/not-a-uuid/trust`), 404, "not_found");
  }));

Deno.test("admin inbox: not_an_admin for others; admins list, patch and note", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const root = await h.user("root", "human", { roles: ["admin"] });
    expectProblem(await ada.api.get("/contact_messages"), 403, "not_an_admin");
    expectProblem(await ada.api.get("/notes"), 403, "not_an_admin");
    const c = await h.admin.post("/_sandbox/contact_messages", {
      name: "Bob",
      email_address: "bob@example.com",
      body: "Hi",
    });
    assert.equal(c.status, 201);
    const id = c.body.contact_message.uuid;
    expectProblem(await ada.api.get(`/contact_messages/${id}`), 403, "not_an_admin");
    assert.equal((await root.api.get("/contact_messages")).body.contact_messages.length, 1);
    expectProblem(await root.api.get("/contact_messages?status=bogus"), 400, "invalid_filter");
    const p = await root.api.patch(`/contact_messages/${id}/status`, {
      contact_message: { status: "closed" },
    });
    assert.equal(p.body.contact_message.status, "closed");
    expectProblem(
      await root.api.patch(`/contact_messages/${id}/status`, { contact_message: { status: "x" } }),
      422,
      "validation_failed",
    );
    const n = await root.api.post(`/contact_messages/${id}/notes`, { note: { body: "done" } });
    assert.equal(n.status, 201);
    assert.equal(n.headers.get("location"), `/notes/${n.body.note.uuid}`);
    assert.deepEqual(n.body.note.notable, { type: "contact_message", uuid: id });
    expectProblem(
      await root.api.post(`/contact_messages/${id}/notes`, { note: { body: " " } }),
      422,
      "validation_failed",
    );
    assert.equal((await root.api.get("/notes")).body.notes.length, 1);
    assert.equal(
      (await root.api.get(`/contact_messages/${id}`)).body.contact_message.notes.length,
      1,
    );
  }));
