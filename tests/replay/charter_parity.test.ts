/**
 * One builder of the configured agent: a real wake (a `harness wake` process on the sandbox and
 * the real openai SDK against the model mock) and `prepareReplay` over the same config home
 * compose the same charter — the bytes the wake sent as its leading system message, and the hash
 * its turn record keeps — including the permission notice the wake's narrowing gives.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../lib/home/records/canonical.ts";
import { prepareReplay } from "../../lib/replay/mod.ts";
import { UNLOCKED_NOTICE } from "../../lib/runtime/permissions.ts";
import { say, scriptReply, world } from "../e2e/wake_support.ts";

for (const profile of ["locked", "unlocked"] as const) {
  Deno.test(`under the ${profile} profile, a replay's charter is the wake's, byte for byte`, async () => {
    await using w = await world({ env: { HARNESS_PROFILE: profile } });
    scriptReply(w.model, "Hello, Bob.");
    await say(w, "@ada hello");
    const wake = await w.wake();
    assert.equal(wake.code, 0, wake.stderr);

    const [first] = w.model.requestsTo("chat");
    const sent = (first.body as { messages: { role: string; content: string }[] }).messages[0];
    assert.equal(sent.role, "system");
    const [line] = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
      .split("\n");
    const record = JSON.parse(line);

    const scratch = await Deno.makeTempDir({ prefix: "charter-parity-" });
    try {
      const setup = await prepareReplay({
        env: w.env,
        model: {
          provider: w.env.AI_PROVIDER,
          sdk: w.env.AI_SDK,
          surface: w.env.AI_SDK_SURFACE,
          model: w.env.AI_MODEL,
          apiKey: w.env.AI_API_KEY,
          baseURL: w.env.AI_BASE_URL,
        },
        scratchHome: scratch,
      });
      assert.ok(setup.charter, "the config home composes a charter");
      // No knowledge pack here, so the leading system message is the charter alone.
      assert.equal(setup.knowledge.text, "");
      assert.equal(sent.content, setup.charter);
      assert.equal(setup.charterHash, sha256Hex(setup.charter));
      assert.equal(record.prompt_hash, setup.charterHash);
      assert.equal(setup.charter.includes(UNLOCKED_NOTICE), profile === "unlocked");
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  });
}
