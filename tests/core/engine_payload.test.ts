/**
 * A request refused as too large while it carried inline images
 * (docs/context.md#a-request-too-large-for-its-images): replayed once without them, the rest of
 * the run goes without them too, the transcript is untouched, and a refusal without images (or
 * of the replay) propagates as before.
 */
import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { ProviderPayloadTooLargeError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import {
  calls,
  EchoTool,
  image,
  RecordingJournal,
  ScriptedProvider,
  text,
  ViewTool,
} from "./engine_fixtures.ts";

const tooLarge = () => new ProviderPayloadTooLargeError("Request entity too large", 413);

function registry() {
  return new ToolRegistry().register(new ViewTool([image("cat.png")])).register(new EchoTool());
}

Deno.test("payload too large with an image: one replay without it, and the run goes on", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([
    calls("view", {}),
    tooLarge(),
    calls("echo", { text: "x" }),
    text("done"),
  ]);
  const messages = [Message.user("look")];
  const result = await new Engine(provider, registry(), { journal }).run(messages);
  assert.equal(result.text, "done");
  assert.equal(provider.calls.length, 4);
  assert.equal(provider.calls[1].messages.find((m) => m.injected)?.images?.length, 1);
  for (const call of provider.calls.slice(2)) {
    const turn = call.messages.find((m) => m.injected)!;
    assert.equal(turn.images, undefined);
    assert.equal(
      turn.content,
      "(Showing image: cat.png)\n(Image omitted from this request: cat.png — the request was " +
        "too large with it inline.)",
    );
  }
  assert.deepEqual(
    journal.lines().filter((l) => l.includes("Request too large")),
    [
      "WARNING Request too large with 1 inline image(s): replaying once without them: Request " +
      "entity too large",
    ],
  );
  // The transcript keeps the caption as it was: the note lived in the request only.
  assert.equal(messages.find((m) => m.injected)?.content, "(Showing image: cat.png)");
});

Deno.test("payload too large without an image, or on the replay, propagates", async () => {
  const plain = new ScriptedProvider([tooLarge()]);
  await assert.rejects(
    new Engine(plain, registry()).run([Message.user("hi")]),
    ProviderPayloadTooLargeError,
  );
  assert.equal(plain.calls.length, 1);
  const twice = new ScriptedProvider([calls("view", {}), tooLarge(), tooLarge()]);
  await assert.rejects(
    new Engine(twice, registry()).run([Message.user("look")]),
    ProviderPayloadTooLargeError,
  );
  assert.equal(twice.calls.length, 3); // the request and its one replay, never a third
});

Deno.test("onRequest sees every request as the provider gets it, the replay without its image too", async () => {
  const provider = new ScriptedProvider([calls("view", {}), tooLarge(), text("done")]);
  const seen: (readonly Message[])[] = [];
  await new Engine(provider, registry()).run([Message.user("look")], {
    onRequest: (sent) => {
      seen.push(structuredClone([...sent])); // without a view it is the live transcript
    },
  });
  // One per call: the first, the refused one with the image, and its replay without it.
  assert.equal(seen.length, provider.calls.length);
  assert.equal(seen.length, 3);
  seen.forEach((sent, i) => assert.deepEqual(sent, provider.calls[i].messages, `call ${i}`));
  assert.equal(seen[1].find((m) => m.injected)?.images?.length, 1);
  assert.equal(seen[2].find((m) => m.injected)?.images, undefined);
});
