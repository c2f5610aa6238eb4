/** Contract: credentials — mint, sign out, the 401 re-mint path, sessions, password change. */
import { strict as assert } from "node:assert";
import {
  ForbiddenError,
  NotFoundError,
  PlatformClient,
  RateLimitedError,
  UnauthorizedError,
  UnprocessableError,
} from "../../lib/platform/mod.ts";
import { USER_AGENT } from "../../lib/base/version.ts";
import { expectError, PASSWORD, withContract } from "./helpers.ts";

Deno.test("contract: session mint returns a working token; sign-out kills it", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const anon = c.client({});
    const minted = await anon.session.mint({
      emailAddress: ada.email,
      password: PASSWORD,
      name: "contract runtime",
    });
    assert.match(minted.token, /^bc_uat_[A-Za-z0-9]{32}$/);
    assert.equal(minted.session?.name, "contract runtime");
    assert.equal(minted.session?.current, true);
    assert.equal(minted.session?.kind, "api");
    assert.equal(minted.start_here, `${c.baseUrl}/users/dashboard.md`);

    const fresh = c.client({ token: minted.token });
    const me = await fresh.users.dashboard();
    assert.equal(me.identity.uuid, ada.uuid);
    const sessions = await fresh.sessions.list().toArray();
    const current = sessions.find((s) => s.current);
    assert.equal(current?.name, "contract runtime");
    assert.equal(current?.user_agent, USER_AGENT, "the client's User-Agent reached the platform");

    await fresh.session.signOut();
    await expectError(fresh.users.dashboard(), UnauthorizedError, "unauthorized");
    // The admin-issued token is a different session and still works.
    assert.equal((await ada.client.users.dashboard()).identity.handle, "ada");

    await expectError(
      anon.session.mint({ emailAddress: ada.email, password: "Wrong-passw0rd" }),
      UnauthorizedError,
      "invalid_credentials",
    );
    const sus = await c.user("sus", { suspended: true });
    await expectError(
      anon.session.mint({ emailAddress: sus.email, password: PASSWORD }),
      ForbiddenError,
      "account_suspended",
    );
  }));

Deno.test("contract: email+password client mints lazily, re-mints once after its token is revoked", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const minted: string[] = [];
    const client = c.client({
      email: ada.email,
      password: PASSWORD,
      sessionName: "self-healing",
      onTokenMinted: (token) => {
        minted.push(token);
      },
    });
    assert.equal((await client.users.dashboard()).identity.uuid, ada.uuid);
    assert.equal(minted.length, 1);
    assert.equal(c.count("POST", /^\/session$/), 1);

    // Someone revokes the client's session mid-run (here: the user, from another credential).
    const theirs = (await ada.client.sessions.list().toArray()).find((s) =>
      s.name === "self-healing"
    );
    assert.ok(theirs, "the minted session is listed");
    await ada.client.sessions.revoke(theirs.uuid);
    await expectError(c.client({ token: minted[0] }).users.dashboard(), UnauthorizedError);

    // The next call answers 401 unauthorized once, re-mints, retries and succeeds.
    const tl = await client.timelines.create({ name: "after revoke" });
    assert.equal(tl.timeline.owner.uuid, ada.uuid);
    assert.equal(minted.length, 2);
    assert.notEqual(minted[1], minted[0]);
    assert.equal(c.count("POST", /^\/session$/), 2);
    assert.equal(c.count("POST", /^\/timelines$/), 2, "one refused attempt, one retry");
    assert.deepEqual(
      c.sandbox.requests.filter((r) => r.path === "/timelines").map((r) => r.status),
      [401, 201],
    );

    // Revoke-all kills the re-minted token too; a second heal works the same way.
    await client.sessions.revokeAll();
    await expectError(ada.client.users.dashboard(), UnauthorizedError, "unauthorized");
    assert.equal((await client.users.dashboard()).identity.uuid, ada.uuid);
    assert.equal(minted.length, 3);

    // A token-only client cannot heal: the 401 propagates, no mint is attempted.
    const mints = c.count("POST", /^\/session$/);
    await expectError(
      c.client({ token: minted[0] }).users.list(),
      UnauthorizedError,
      "unauthorized",
    );
    assert.equal(c.count("POST", /^\/session$/), mints);
  }));

Deno.test("contract: a wrong password is not retried in a loop — the mint's 401 propagates", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const client = c.client({ email: ada.email, password: "Not-the-passw0rd" });
    await expectError(client.users.dashboard(), UnauthorizedError, "invalid_credentials");
    assert.equal(c.count("POST", /^\/session$/), 1);
    assert.equal(c.count("GET", /^\/users\/dashboard$/), 0);
  }));

Deno.test("contract: sessions list, revoke one (404 for not-yours), revoke all", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const bob = await c.user("bob");
    const anon = c.client({});
    for (const name of ["one", "two"]) {
      await anon.session.mint({ emailAddress: ada.email, password: PASSWORD, name });
    }
    const page = await ada.client.sessions.page();
    assert.equal(page.items.length, 3);
    assert.equal(page.nextCursor, null);
    assert.equal(page.items.filter((s) => s.current).length, 1);
    assert.deepEqual(
      page.items.map((s) => s.name),
      ["two", "one", "sandbox"],
      "newest first",
    );
    const one = page.items.find((s) => s.name === "one")!;
    await expectError(bob.client.sessions.revoke(one.uuid), NotFoundError, "not_found");
    await ada.client.sessions.revoke(one.uuid);
    assert.deepEqual((await ada.client.sessions.list().toArray()).map((s) => s.name), [
      "two",
      "sandbox",
    ]);
    await ada.client.sessions.revokeAll();
    await expectError(ada.client.sessions.page(), UnauthorizedError, "unauthorized");
    // Bob is untouched.
    assert.equal((await bob.client.sessions.list().toArray()).length, 1);
  }));

Deno.test("contract: password change — wrong current, mismatch, weak, success signs nothing out", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const next = "Brand-new-Passw0rd";
    const wrong = await expectError(
      ada.client.password.change({
        currentPassword: "nope",
        password: next,
        passwordConfirmation: next,
      }),
      UnprocessableError,
      "current_password_incorrect",
    );
    assert.deepEqual(Object.keys(wrong.fieldErrors), ["current_password"]);
    await expectError(
      ada.client.password.change({
        currentPassword: PASSWORD,
        password: next,
        passwordConfirmation: next + "x",
      }),
      UnprocessableError,
      "password_confirmation_mismatch",
    );
    const weak = await expectError(
      ada.client.password.change({
        currentPassword: PASSWORD,
        password: "short",
        passwordConfirmation: "short",
      }),
      UnprocessableError,
      "validation_failed",
    );
    assert.ok(weak.fieldErrors.password?.length);

    await ada.client.password.change({
      currentPassword: PASSWORD,
      password: next,
      passwordConfirmation: next,
    });
    // Nothing was signed out.
    assert.equal((await ada.client.users.dashboard()).identity.uuid, ada.uuid);
    const anon = new PlatformClient({ baseUrl: c.baseUrl });
    await expectError(
      anon.session.mint({ emailAddress: ada.email, password: PASSWORD }),
      UnauthorizedError,
      "invalid_credentials",
    );
    const minted = await anon.session.mint({ emailAddress: ada.email, password: next });
    assert.match(minted.token, /^bc_uat_/);
  }));

Deno.test("contract: a client built from BASECRADLE_* variables works against the sandbox", () =>
  withContract(async (c) => {
    const vega = await c.user("vega", { kind: "ai" });
    const env: Record<string, string> = {
      BASECRADLE_BASE_URL: c.baseUrl,
      BASECRADLE_EMAIL: vega.email,
      BASECRADLE_PASSWORD: PASSWORD,
      BASECRADLE_SESSION_NAME: "from env",
    };
    const client = PlatformClient.fromEnv({}, (name) => env[name]);
    assert.equal((await client.users.dashboard()).identity.uuid, vega.uuid);
    const names = (await vega.client.sessions.list().toArray()).map((s) => s.name);
    assert.ok(names.includes("from env"));
  }));

Deno.test("contract: re-mint happens once per refusal — a failed mint propagates, a second 401 is final", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const client = c.client({ email: ada.email, password: PASSWORD });
    await client.users.dashboard();
    await ada.client.sessions.revokeAll();

    // The re-mint itself is rate limited: that error surfaces, and the next call mints afresh.
    await c.fault({ path: "^/session$", status: 429 });
    const limited = await expectError(client.users.dashboard(), RateLimitedError, "rate_limited");
    assert.equal(limited.endpoint, "POST /session");
    assert.equal((await client.users.dashboard()).identity.uuid, ada.uuid);

    // A platform that keeps answering 401 unauthorized gets one re-mint and one retry, no loop.
    const mints = c.count("POST", /^\/session$/);
    await c.fault({ path: "^/users$", status: 401, count: 5 });
    await expectError(client.users.list(), UnauthorizedError, "unauthorized");
    assert.equal(c.count("POST", /^\/session$/) - mints, 1);
    assert.equal(c.count("GET", /^\/users$/), 2);
  }));
