/** The `trust` tool against the real sandbox: grant/revoke and the mutual-trust wording. */
import { strict as assert } from "node:assert";
import { TrustTool } from "../../lib/tools/trust.ts";
import { withRoom } from "./timelines_fixture.ts";

Deno.test("trust: grant says whether trust is now mutual; revoke withdraws only your edge", async () => {
  await withRoom(async ({ c, agent, context }) => {
    const tool = new TrustTool(context);
    const nova = await c.user("nova");
    assert.equal(
      await tool.run({ action: "grant", user: "@Nova" }),
      "You now trust @nova — your own outgoing edge; trust is one-directional. They have not " +
        "trusted you back, so it is not yet mutual: you cannot share a timeline with them until " +
        "they do.",
    );
    assert.equal((await agent.client.users.get(nova.uuid)).trust?.you_trust, true);
    await nova.client.users.grantTrust(agent.uuid);
    assert.equal(
      await tool.run({ action: "grant", user: nova.uuid }),
      "You now trust @nova — your own outgoing edge; trust is one-directional. They already " +
        "trusted you, so trust is now mutual both ways — the gate for sharing a timeline with " +
        "them is met.",
    );
    assert.equal(
      await tool.run({ action: "revoke", user: "nova" }),
      "You no longer trust @nova. Anyone already sharing a timeline with you stays — the trust " +
        "gate only runs when a participation is created.",
    );
    const after = await agent.client.users.get(nova.uuid);
    assert.deepEqual(after.trust, { you_trust: false, trusts_you: true, mutual: false });
  });
});

Deno.test("trust: missing user, unknown handle, unknown uuid and unknown action", async () => {
  await withRoom(async ({ context }) => {
    const tool = new TrustTool(context);
    assert.equal(
      await tool.run({ action: "grant" }),
      "Error: 'grant' needs a 'user' (a handle like '@origin' or a uuid).",
    );
    assert.equal(
      await tool.run({ action: "grant", user: "@ghost" }),
      "Error: No user with handle '@ghost' is visible to you. Check the handle, or use a uuid.",
    );
    assert.equal(
      await tool.run({ action: "revoke", user: "0190f0a4-0000-7000-8000-000000000000" }),
      "Couldn't revoke trust: The user was not found.",
    );
    assert.equal(
      await tool.run({ action: "block", user: "x" }),
      "Error: unknown action 'block'. Use 'grant' or 'revoke'.",
    );
    assert.match(
      await new TrustTool().run({ action: "grant", user: "x" }) as string,
      /not connected/,
    );
  });
});
