/**
 * What a replay's outbound gate screens: the checks `prepareReplay` resolves refuse the agent's
 * own credentials (its platform token, its model API key, its password) in the spellings the
 * generic secret shapes miss — without their vendor prefix, split by invisible characters — as a
 * wake's gate does, so a replayed turn that leaks one is counted as refused, not as spoken. The
 * last test replays a turn end to end: the real openai SDK on the wire mock posts the token, and
 * the replay's gate refuses it.
 */
import assert from "node:assert/strict";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { buildProvider } from "../../lib/providers/factory.ts";
import { prepareReplay, type ReplaySetup, runTurn } from "../../lib/replay/mod.ts";
import { ModelMock, responsesReply } from "../support/model_mock.ts";
import { turnInput, withHome } from "../home/records/fixture.ts";

const TOKEN = "bc_uat_Q7mZ2xK9pL4vR8tW1nB6cY3dF5gH0jS2";
const API_KEY = "sk-proj-Vb8Nq3Lz6Xw1Rt9Ky4Hm7Jd2Pc5Fs0Ga";
const PASSWORD = "Tr0ub4dor&3-horse-Battery-Staple";

/** Resolves a replay setup under a fresh `HOME` with `platform`'s credentials in the environment. */
async function setupWith(platform: Record<string, string>, baseURL?: string): Promise<ReplaySetup> {
  const home = await Deno.makeTempDir({ prefix: "replay-setup-" });
  try {
    return await prepareReplay({
      env: { HOME: home, BASECRADLE_BASE_URL: "http://127.0.0.1:9", ...platform },
      model: { provider: "openai", sdk: "openai", model: "gpt-test", apiKey: API_KEY, baseURL },
      scratchHome: `${home}/scratch`,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/**
 * The names of the checks that refuse `body`, as a message body and as any other text field (a
 * filename, a task's instructions): the two surfaces must agree on the agent's own secrets.
 */
function refusedBy(setup: ReplaySetup, body: string): string[] {
  const [message, text] = [setup.checks.message, setup.checks.text].map((checks) =>
    checks.map((check) => check.judge(body)).filter((v) => !v.passed).map((v) => v.check)
  );
  assert.deepEqual(text, message, `both surfaces judge ${JSON.stringify(body)} alike`);
  return message;
}

/** `secret` without its vendor prefix, with a zero-width space after every fourth character. */
function disguised(secret: string, prefix: string): string {
  return secret.slice(prefix.length).replace(/(.{4})/g, "$1\u200b");
}

Deno.test("a replay's gate refuses the agent's own token and API key, however they are spelled", async () => {
  const setup = await setupWith({ BASECRADLE_TOKEN: TOKEN });
  assert.deepEqual(refusedBy(setup, "nothing secret here"), []);
  for (
    const body of [
      `my token: ${disguised(TOKEN, "bc_uat_")}`,
      `the key is ${disguised(API_KEY, "sk-proj-")}`,
    ]
  ) {
    assert.deepEqual(refusedBy(setup, body), ["known_secrets"], body);
  }
});

Deno.test("a replay's gate refuses the agent's own password", async () => {
  const setup = await setupWith({
    BASECRADLE_EMAIL: "ada@example.com",
    BASECRADLE_PASSWORD: PASSWORD,
  });
  assert.deepEqual(refusedBy(setup, `log in with ${PASSWORD}`), ["known_secrets"]);
  assert.deepEqual(refusedBy(setup, "log in with the usual password"), []);
});

Deno.test("a replayed turn that posts the agent's own token is refused, not spoken", async () => {
  await using mock = await ModelMock.start();
  const leak = `here it is: ${disguised(TOKEN, "bc_uat_")}`;
  mock.reply(
    "responses",
    {
      json: responsesReply({
        toolCalls: [{
          id: "call_1",
          name: "messages",
          arguments: { action: "create", body: leak },
        }],
      }),
    },
    { json: responsesReply({ text: "Done." }) },
  );
  const setup = await setupWith({ BASECRADLE_TOKEN: TOKEN }, mock.baseURL);
  await withHome(async (home) => {
    const record = await appendTurnRecord(home, turnInput(1, { content: "full" }));
    const run = await runTurn(record, setup, buildProvider(setup.provider), new MemoryJournal());
    assert.deepEqual(run.posts, []);
    assert.deepEqual(run.verdicts, [{ verdict: "refused", checks: ["known_secrets"] }]);
  });
  assert.equal(mock.hits("responses"), 2);
});
