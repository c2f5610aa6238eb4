/**
 * The platform side of waking agents: AI users' integrations through the admin API and on their
 * profiles, and the signed deliveries the sandbox POSTs to a local receiver, checked byte for
 * byte and against an HMAC computed here independently.
 */
import { strict as assert } from "node:assert";
import { createHmac, timingSafeEqual } from "node:crypto";
import { type Peer, withSandbox } from "./helpers.ts";
import { recorder } from "./router_support.ts";

/** One request the receiver got: headers and the exact body bytes. */
interface Received {
  method: string;
  path: string;
  headers: Headers;
  raw: Uint8Array<ArrayBuffer>;
}

/** A local HTTP receiver answering `status()` to every POST. */
function receiver(status: () => number = () => 202) {
  const got: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    got.push({
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      raw: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response("accepted", { status: status() });
  });
  return {
    got,
    url: `http://127.0.0.1:${server.addr.port}/webhooks/basecradle`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Whether `header` is `sha256=<hex HMAC-SHA256 of raw under secret>`, checked two ways. */
async function signedWith(raw: Uint8Array<ArrayBuffer>, header: string | null, secret: string) {
  if (!header?.startsWith("sha256=")) return false;
  const hex = header.slice("sha256=".length);
  const expected = createHmac("sha256", secret).update(raw).digest();
  const given = new Uint8Array(hex.match(/../g)!.map((byte) => parseInt(byte, 16)));
  const nodeOk = given.length === expected.length && timingSafeEqual(given, expected);
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const webOk = await crypto.subtle.verify("HMAC", key, given, raw);
  return nodeOk && webOk;
}

const SECRET = "s3cret-integration-signing-key-0001";

Deno.test("admin API: an AI user's integration is set at creation and changed later; the secret is minted when absent", async () => {
  await withSandbox(async (h) => {
    const made = await h.admin.post("/_sandbox/users", {
      handle: "vega",
      name: "Vega",
      kind: "ai",
      integration_url: "http://127.0.0.1:8787/webhooks/basecradle",
    });
    assert.equal(made.status, 201);
    const integration = made.body.integration;
    assert.equal(integration.integration_url, "http://127.0.0.1:8787/webhooks/basecradle");
    assert.equal(integration.integration_enabled, true);
    assert.equal(integration.integration_failure_count, 0);
    assert.match(integration.integration_secret, /^bc_isk_[A-Za-z0-9]{32}$/);
    const uuid = made.body.user.uuid;

    const off = await h.admin.patch(`/_sandbox/users/${uuid}/integration`, {
      integration_enabled: false,
      integration_secret: SECRET,
    });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body.integration, {
      integration_url: "http://127.0.0.1:8787/webhooks/basecradle",
      integration_enabled: false,
      integration_failure_count: 0,
      integration_secret: SECRET,
    });
    const read = await h.admin.get(`/_sandbox/users/${uuid}/integration`);
    assert.deepEqual(read.body, off.body);

    // A user made without one gets an empty integration (and a secret) when first read.
    const plain = await h.user("orion", "ai");
    assert.equal(
      (await h.admin.post("/_sandbox/users", { handle: "x", name: "x", kind: "ai" }))
        .body.integration,
      undefined,
    );
    const empty = await h.admin.get(`/_sandbox/users/${plain.uuid}/integration`);
    assert.equal(empty.body.integration.integration_url, null);
    assert.equal(empty.body.integration.integration_enabled, false);
    assert.match(empty.body.integration.integration_secret, /^bc_isk_/);
  });
});

Deno.test("admin API: integrations refuse bad input with the field named", async () => {
  await withSandbox(async (h) => {
    const human = await h.admin.post("/_sandbox/users", {
      handle: "ada",
      name: "Ada",
      kind: "human",
      integration_url: "http://127.0.0.1:1/x",
    });
    assert.equal(human.status, 422);
    assert.deepEqual(human.body.errors, { integration_url: ["is only available to AI users"] });
    const badUrl = await h.admin.post("/_sandbox/users", {
      handle: "vega",
      name: "Vega",
      kind: "ai",
      integration_url: "ftp://example.com/x",
    });
    assert.equal(badUrl.status, 422);
    assert.deepEqual(badUrl.body.errors, {
      integration_url: ["must be an absolute http or https URL"],
    });
    const vega = await h.user("vega", "ai");
    const short = await h.admin.patch(`/_sandbox/users/${vega.uuid}/integration`, {
      integration_secret: "short",
    });
    assert.equal(short.status, 422);
    assert.deepEqual(Object.keys(short.body.errors), ["integration_secret"]);
    const ada = await h.user("ada");
    assert.equal((await h.admin.patch(`/_sandbox/users/${ada.uuid}/integration`, {})).status, 422);
    const missing = "0190a000-0000-7000-8000-000000000999";
    assert.equal((await h.admin.get(`/_sandbox/users/${missing}/integration`)).status, 404);
    // Nothing was created by the refused requests.
    assert.equal(
      (await h.admin.get(`/_sandbox/users/${vega.uuid}/integration`)).body.integration
        .integration_url,
      null,
    );
  });
});

Deno.test("profiles show integration_url, _enabled and _failure_count to the user and admins only", async () => {
  await withSandbox(async (h) => {
    const vega = await h.user("vega", "ai", { integration_url: "http://127.0.0.1:8787/in" });
    const ada = await h.user("ada");
    const root = await h.user("root", "human", { roles: ["admin"] });
    await h.mutual(ada, vega);
    const me = await vega.api.get("/users/dashboard");
    assert.equal(me.body.identity.integration_url, "http://127.0.0.1:8787/in");
    assert.equal(me.body.identity.integration_enabled, true);
    assert.equal(me.body.identity.integration_failure_count, 0);
    assert.equal("integration_secret" in me.body.identity, false, "the secret is never shown");
    const asAdmin = await root.api.get(`/users/${vega.uuid}`);
    assert.equal(asAdmin.body.user.integration_url, "http://127.0.0.1:8787/in");
    const asPeer = await ada.api.get(`/users/${vega.uuid}`);
    assert.equal("integration_url" in asPeer.body.user, false);
  });
});

/** Ada (human) and Vega (AI) on one timeline; Vega's integration points at `url`. */
async function pair(
  h: Parameters<Parameters<typeof withSandbox>[0]>[0],
  url: string,
): Promise<{ ada: Peer; vega: Peer; tl: string }> {
  const vega = await h.user("vega", "ai", { integration_url: url, integration_secret: SECRET });
  const ada = await h.user("ada");
  await h.mutual(ada, vega);
  const tl = await h.timeline(ada);
  await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid });
  return { ada, vega, tl };
}

Deno.test("deliveries: a signed POST with the platform's headers and body, for every event, the agent's own included", async () => {
  await using rx = receiver();
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await pair(h, rx.url);
    const orion = await h.user("orion", "ai"); // an AI viewer without an integration gets none
    await h.mutual(ada, orion);
    await h.mutual(vega, orion);
    const joined = await ada.api.post(`/timelines/${tl}/participations`, { user_id: orion.uuid });
    assert.equal(joined.status, 201);
    const asked = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
    const own = await vega.api.post(`/timelines/${tl}/messages`, { message: { body: "mine" } });
    await h.sandbox.deliveriesIdle();

    assert.equal(rx.got.length, 2);
    const events = h.sandbox.events().filter((e) => e.event === "message.created");
    for (const [i, message] of [asked, own].entries()) {
      const request = rx.got[i];
      assert.equal(request.method, "POST");
      assert.equal(request.path, "/webhooks/basecradle");
      assert.equal(request.headers.get("content-type"), "application/json");
      assert.equal(request.headers.get("x-basecradle-event"), "message.created");
      assert.ok(
        await signedWith(request.raw, request.headers.get("x-basecradle-signature"), SECRET),
      );
      assert.equal(
        await signedWith(
          request.raw,
          request.headers.get("x-basecradle-signature"),
          "other-secret-0000",
        ),
        false,
      );
      const body = JSON.parse(new TextDecoder().decode(request.raw));
      assert.deepEqual(Object.keys(body), [
        "event",
        "event_id",
        "occurred_at",
        "actor_uuid",
        "recipient_uuid",
        "timeline_uuid",
        "resource",
      ]);
      assert.equal(request.headers.get("x-basecradle-delivery"), body.event_id);
      const uuid = message.body.message.content.uuid;
      assert.deepEqual(body, {
        event: "message.created",
        event_id: body.event_id,
        occurred_at: events[i].at,
        actor_uuid: i === 0 ? ada.uuid : vega.uuid,
        recipient_uuid: vega.uuid,
        timeline_uuid: tl,
        resource: { type: "message", uuid, url: `${h.base}/messages/${uuid}` },
      });
    }
    assert.notEqual(
      rx.got[0].headers.get("x-basecradle-delivery"),
      rx.got[1].headers.get("x-basecradle-delivery"),
    );
    assert.deepEqual(h.sandbox.deliveries.map((d) => [d.handle, d.status, d.ok]), [
      ["vega", 202, true],
      ["vega", 202, true],
    ]);
    // Switched off: nothing more is delivered.
    await h.admin.patch(`/_sandbox/users/${vega.uuid}/integration`, { integration_enabled: false });
    await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "again" } });
    await h.sandbox.deliveriesIdle();
    assert.equal(rx.got.length, 2);
  });
});

Deno.test("deliveries: assets, activated tasks, webhook events and a deleted timeline each reach the integration", async () => {
  await using rx = receiver(() => 200);
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await pair(h, rx.url);
    const form = new FormData();
    form.append("asset[file]", new Blob(["hello"], { type: "text/plain" }), "a.txt");
    const asset = await ada.api.post(`/timelines/${tl}/assets`, form);
    assert.equal(asset.status, 201, asset.text);
    const task = await vega.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "remind me", activate_at: "2999-01-01T00:00:00Z" },
    });
    await h.admin.post(`/_sandbox/tasks/${task.body.task.content.uuid}/activate`);
    const ep = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "ci" },
    });
    const ingest = await fetch(ep.body.webhook_endpoint.content.ingest_url, {
      method: "POST",
      body: "{}",
    });
    await ingest.body?.cancel();
    await ada.api.delete(`/timelines/${tl}`);
    await h.sandbox.deliveriesIdle();
    const bodies = rx.got.map((r) => JSON.parse(new TextDecoder().decode(r.raw)));
    assert.deepEqual(bodies.map((b) => [b.event, b.resource.type]), [
      ["asset.created", "asset"],
      ["task.activated", "task"],
      ["webhook_event.received", "webhook_event"],
      ["timeline.deleted", "timeline"],
    ]);
    assert.equal(bodies[0].resource.uuid, asset.body.asset.content.uuid);
    assert.equal(bodies[2].actor_uuid, null);
    assert.equal(bodies[3].resource.uuid, tl);
    assert.ok(bodies.every((b) => b.recipient_uuid === vega.uuid && b.timeline_uuid === tl));
  });
});

Deno.test("deliveries: failures are counted, a success clears the count, five in a row switch the integration off", async () => {
  let status = 500;
  await using rx = receiver(() => status);
  const lines: string[] = [];
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await pair(h, rx.url);
    const post = async (body: string) => {
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body } });
      await h.sandbox.deliveriesIdle();
    };
    const count = async () =>
      (await vega.api.get("/users/dashboard")).body.identity.integration_failure_count;
    await post("one");
    await post("two");
    assert.equal(await count(), 2);
    status = 202;
    await post("three");
    assert.equal(await count(), 0);
    status = 503;
    for (let i = 0; i < 5; i++) await post(`fail ${i}`);
    const identity = (await vega.api.get("/users/dashboard")).body.identity;
    assert.equal(identity.integration_failure_count, 5);
    assert.equal(identity.integration_enabled, false);
    assert.equal(
      lines.filter((l) => l === "sandbox integration-disabled user=@vega reason=failures").length,
      1,
    );
    await post("not sent");
    assert.equal(rx.got.length, 8);
    assert.ok(
      lines.some((l) =>
        /^sandbox delivery-failed event=message\.created recipient=@vega delivery=\S+ status=503 ms=\d+$/
          .test(l)
      ),
    );
    assert.ok(
      lines.some((l) =>
        /^sandbox delivery event=message\.created recipient=@vega delivery=\S+ status=202 ms=\d+$/
          .test(l)
      ),
    );
    // Switching it back on starts the count over.
    const on = await h.admin.patch(`/_sandbox/users/${vega.uuid}/integration`, {
      integration_enabled: true,
    });
    assert.equal(on.body.integration.integration_failure_count, 0);
  }, { log: (line) => lines.push(line) });
});

Deno.test("deliveries: a receiver that is not listening is a failure with the reason logged, never a request error", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const lines: string[] = [];
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await pair(h, `http://127.0.0.1:${port}/in`);
    const posted = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
    assert.equal(posted.status, 201);
    await h.sandbox.deliveriesIdle();
    const [record] = h.sandbox.deliveries;
    assert.equal(record.status, null);
    assert.equal(record.ok, false);
    assert.ok(record.error);
    const identity = (await vega.api.get("/users/dashboard")).body.identity;
    assert.equal(identity.integration_failure_count, 1);
    assert.ok(lines.some((l) => /^sandbox delivery-failed .* reason=".+" ms=\d+$/.test(l)));
  }, { log: (line) => lines.push(line) });
});

Deno.test("the router twin leaves an AI user whose integration is on to its integration URL", async () => {
  await using rx = receiver();
  await using rec = await recorder(0);
  await withSandbox(async (h) => {
    const { ada, vega, tl } = await pair(h, rx.url);
    const orion = await h.user("orion", "ai");
    await h.mutual(ada, orion);
    await h.mutual(vega, orion);
    const joined = await ada.api.post(`/timelines/${tl}/participations`, { user_id: orion.uuid });
    assert.equal(joined.status, 201);
    await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "hi" } });
    await h.sandbox.deliveriesIdle();
    await h.sandbox.router!.idle();
    assert.equal(rx.got.length, 1, "vega's delivery went to its URL");
    assert.deepEqual(h.sandbox.router!.history.map((r) => r.handle), ["orion"]);
  }, { dataDir: rec.dir, wakeCommand: rec.command, wakeOutput: () => {} });
});
