/** The `webhook_endpoints` tool against the real sandbox: lifecycle, keys and refusals. */
import { strict as assert } from "node:assert";
import { PlatformError } from "../../lib/platform/mod.ts";
import { WebhookEndpointsTool } from "../../lib/tools/webhook_endpoints.ts";
import { contextFor, since, withRoom } from "./timelines_fixture.ts";

const KEY = "0190f0a4-0000-7000-8000-00000000e4d9";
const keyed = {
  idempotencyKey: (kind: string, id: string) =>
    kind === "webhook_endpoint" && id === "c1" ? KEY : undefined,
};

const urlOf = (text: string) => /\n\n(\S+)\n\n/.exec(text)?.[1] ?? "";

Deno.test("webhook_endpoints: create returns the ingest URL, sends the key, and a replay is the same endpoint", async () => {
  await withRoom(async ({ c, context, timeline }) => {
    const tool = new WebhookEndpointsTool(context);
    assert.equal(await tool.run({ action: "list" }), "No webhook endpoints on this timeline yet.");
    const mark = c.sandbox.requests.length;
    const created = await tool.run({ action: "create", description: "CI" }, { callId: "c1" });
    assert.match(
      created as string,
      /^Created webhook endpoint \(uuid=\S+\)\. Its ingest URL — the secret address an external service POSTs to — is:\n\nhttp\S+\/webhooks\/\S+\n\nHand that to the sender; rotate it if it ever leaks\. Signature verification is off\.$/,
    );
    assert.equal(since(c, mark).find((r) => r.method === "POST")?.idempotencyKey, KEY);
    assert.equal(
      await tool.run({ action: "create", description: "CI" }, { callId: "c1" }),
      created,
    );
    const endpoints = await context.client.webhookEndpoints.list({ timeline }).toArray();
    assert.equal(endpoints.length, 1);
    const uuid = endpoints[0].content.uuid;
    assert.equal(
      await tool.run({ action: "list" }),
      "Webhook endpoints on this timeline (newest first):\n" +
        `uuid=${uuid} · enabled · unsigned · ingest_url=${urlOf(created as string)} — CI`,
    );
    assert.deepEqual(context.acts, [], "an endpoint is not a visible act");
  }, keyed);
});

Deno.test("webhook_endpoints: disable, enable and rotate change what the ingest URL accepts", async () => {
  await withRoom(async ({ context }) => {
    const tool = new WebhookEndpointsTool(context);
    const created = await tool.run({ action: "create", description: "hooks" }) as string;
    const uuid = /uuid=([^)]+)/.exec(created)?.[1] ?? "";
    const url = urlOf(created);
    // The status the ingest answered; a refused delivery throws a typed PlatformError.
    const ingest = async (target: string) => {
      try {
        return (await context.client.webhookEvents.ingest(target, "{}")).status;
      } catch (error) {
        if (error instanceof PlatformError) return error.status;
        throw error;
      }
    };

    assert.equal(
      await tool.run({ action: "disable", uuid }),
      `Disabled webhook endpoint ${uuid}. Inbound deliveries are refused (410 Gone) until you ` +
        "enable it again; its event history is kept.",
    );
    assert.equal(await ingest(url), 410);
    assert.equal(
      await tool.run({ action: "enable", uuid }),
      `Enabled webhook endpoint ${uuid}. Inbound deliveries are accepted again.`,
    );
    assert.equal(await ingest(url), 201);

    const rotated = await tool.run({ action: "rotate", uuid }) as string;
    const fresh = urlOf(rotated);
    assert.equal(
      rotated,
      `Rotated webhook endpoint ${uuid}. The old ingest URL is dead; its new ingest URL is:\n\n` +
        `${fresh}\n\nHand the new URL to the sender.`,
    );
    assert.notEqual(fresh, url);
    assert.equal(await ingest(fresh), 201);
    assert.notEqual(await ingest(url), 201);
  });
});

Deno.test("webhook_endpoints: missing fields, unknown action and platform refusals", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    const tool = new WebhookEndpointsTool(context);
    assert.equal(
      await tool.run({ action: "create" }),
      "Error: 'create' needs a 'description' for the endpoint.",
    );
    assert.equal(
      await tool.run({ action: "rotate" }),
      "Error: 'rotate' needs the endpoint's uuid. Use 'list' to find it.",
    );
    assert.equal(
      await tool.run({ action: "delete" }),
      "Error: unknown action 'delete'. Use 'create', 'list', 'enable', 'disable', or 'rotate'.",
    );
    assert.match(
      await tool.run({ action: "enable", uuid: "0190f0a4-0000-7000-8000-000000000000" }) as string,
      /^Couldn't enable the endpoint: /,
    );
    const stranger = await c.user("stranger");
    assert.equal(
      await new WebhookEndpointsTool(contextFor(stranger, timeline).context)
        .run({ action: "create", description: "x" }),
      "Couldn't create the endpoint: You are not a viewer of this timeline.",
    );
    await agent.client.timelines.lock(timeline);
    assert.match(
      await tool.run({ action: "create", description: "x" }) as string,
      /^Couldn't create the endpoint: The timeline is locked/,
    );
    assert.match(
      await new WebhookEndpointsTool().run({ action: "list" }) as string,
      /not connected/,
    );
  });
});
