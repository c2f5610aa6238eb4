/**
 * send_direct_message_to_origin end to end (docs/tools.md#send_direct_message_to_origin-page-the-operator): the
 * real `harness wake` CLI against the sandbox, the stem opted in by `harness install`, a
 * scripted model that calls the tool, and a local stub standing in for ntfy (NTFY_DM_URL). The
 * direct message is not speech: the stub receives it, the timeline does not, and the wake ends
 * with `posted=0`.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { startStub } from "../support/http_stub.ts";
import { agentPosts, say, world } from "./wake_support.ts";

const TOKEN = "tk_e2e_ntfy_secret";

Deno.test("a wake sends a direct message to the operator; nothing is posted to the timeline", async () => {
  await using stub = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  const env = { NTFY_DM_TOKEN: TOKEN, NTFY_DM_URL: `${stub.url}/BaseCradle-Direct-Message` };
  const installed = await runCli(["install", "--opt-in", "send_direct_message_to_origin"], {
    env: { ...w.env, ...env },
  });
  assert.equal(installed.code, 0, installed.stderr);
  await say(w, "tell the operator the build is broken");
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_dm",
          name: "send_direct_message_to_origin",
          arguments: { body: "Build is broken on main." },
        }],
      }),
    },
    { json: chatCompletion({ content: "Paged the operator." }) },
    // The unspoken-channel nudge asks once more, since nothing reached the timeline (a direct
    // message is not a post); the agent stays silent there on purpose.
    { json: chatCompletion({ content: "Paged the operator; nothing to post here." }) },
  );
  const result = await w.wake([], env);
  assert.equal(result.code, 0, result.stderr);

  const offered =
    (w.model.requestsTo("chat")[0].body as { tools: { function: { name: string } }[] })
      .tools.map((t) => t.function.name);
  assert.ok(offered.includes("send_direct_message_to_origin"), offered.join(","));

  assert.equal(stub.requests.length, 1);
  const request = stub.requests[0];
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/BaseCradle-Direct-Message");
  assert.equal(request.headers.get("authorization"), `Bearer ${TOKEN}`);
  assert.equal(request.headers.get("title"), `BaseCradle DM from @${w.agent.handle}`);
  assert.equal(request.headers.get("priority"), "5");
  assert.equal(request.headers.get("tags"), "speech_balloon");
  assert.equal(request.text(), "Build is broken on main.");

  assert.match(
    result.stderr,
    new RegExp(`INFO direct_message sent bytes=24 title="BaseCradle DM from @${w.agent.handle}"`),
  );
  assert.match(result.stderr, /INFO wake end timeline=\S+ outcome=ok turns=1 .*posted=0/);
  assert.ok(!result.stderr.includes(TOKEN));
  assert.ok(!result.stdout.includes(TOKEN));
  assert.deepEqual(await agentPosts(w), []);
});
