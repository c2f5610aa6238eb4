/** The `webhook_events` tool against the real sandbox: list previews, filters and full reads. */
import { strict as assert } from "node:assert";
import { WebhookEventsTool } from "../../lib/tools/webhook_events.ts";
import { contextFor, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("webhook_events: list previews payloads, narrows by endpoint, read shows headers and payload", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    const tool = new WebhookEventsTool(context);
    assert.equal(await tool.run({ action: "list" }), "No webhook events on this timeline yet.");
    const api = agent.client.webhookEndpoints;
    const a = await api.create(timeline, asUser("webhook_endpoint", { description: "a" }));
    const b = await api.create(timeline, asUser("webhook_endpoint", { description: "b" }));
    const long = `{"text":"${"x".repeat(200)}"}`;
    await agent.client.webhookEvents.ingest(a.content.ingest_url, long, {
      contentType: "application/json",
      headers: { "X-Source": "ci" },
    });
    await agent.client.webhookEvents.ingest(b.content.ingest_url, "ping", {
      contentType: "text/plain",
    });

    const lines = (await tool.run({ action: "list" }) as string).split("\n");
    assert.equal(lines[0], "Webhook events on this timeline (newest first):");
    assert.equal(lines.length, 3);
    assert.match(
      lines[1],
      new RegExp(
        `^uuid=\\S+ · received=\\S+ · content_type=text/plain · endpoint=${b.content.uuid} — ping$`,
      ),
    );
    assert.ok(lines[2].endsWith(` — ${long.slice(0, 120)}…`), lines[2]);

    const narrowed = (await tool.run({ action: "list", endpoint: a.content.uuid }) as string)
      .split("\n");
    assert.equal(narrowed.length, 2);
    assert.match(narrowed[1], new RegExp(`endpoint=${a.content.uuid}`));
    const [event] = await agent.client.webhookEvents.list({ endpoint: a.content.uuid }).toArray();

    const read = await tool.run({ action: "read", uuid: event.content.uuid }) as string;
    assert.match(
      read,
      new RegExp(
        `^uuid=${event.content.uuid} · received=\\S+ · content_type=application/json · endpoint=${a.content.uuid}\\n\\nHeaders:\\n`,
      ),
    );
    assert.match(read, /\n {2}x-source: ci\n|\n {2}X-Source: ci\n/i);
    assert.ok(read.endsWith(`\n\nPayload:\n${long}`));

    const empty = await api.create(timeline, asUser("webhook_endpoint", { description: "quiet" }));
    assert.equal(
      await tool.run({ action: "list", endpoint: empty.content.uuid }),
      "No webhook events on this timeline for that endpoint yet.",
    );
    assert.equal(
      await tool.run({ action: "read" }),
      "Error: 'read' needs the event's uuid. Use 'list' to find it.",
    );
    assert.equal(
      await tool.run({ action: "replay" }),
      "Error: unknown action 'replay'. Use 'list' or 'read'.",
    );
    assert.match(
      await tool.run({ action: "read", uuid: "0190f0a4-0000-7000-8000-000000000000" }) as string,
      /^Couldn't read the event: /,
    );
    const stranger = await c.user("stranger");
    assert.match(
      await new WebhookEventsTool(contextFor(stranger, timeline).context)
        .run({ action: "read", uuid: event.content.uuid }) as string,
      /^Couldn't read the event: /,
    );
    assert.match(await new WebhookEventsTool().run({ action: "list" }) as string, /not connected/);
  });
});
