import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { ProviderAuthError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import {
  calls,
  EchoTool,
  image,
  RecordingJournal,
  ScriptedProvider,
  text,
  TINY_PNG,
  ViewTool,
} from "./engine_fixtures.ts";

function registry() {
  return new ToolRegistry().register(new ViewTool([image("cat.png"), image("")]))
    .register(new EchoTool());
}

Deno.test("images: shown to a vision model as one injected turn after all results, then evicted", async () => {
  const provider = new ScriptedProvider([
    calls("view", {}, "echo", { text: "after" }),
    text("a cat"),
  ]);
  const messages = [Message.user("look")];
  await new Engine(provider, registry()).run(messages);

  const roles = messages.map((m) => m.role);
  assert.deepEqual(roles, [
    "user",
    "system",
    "assistant",
    "tool",
    "tool",
    "user",
    "system",
    "assistant",
  ]);
  const injected = messages[5];
  assert.equal(injected.content, "(Showing image: cat.png, image)");
  assert.equal(injected.injected, true);
  // The model saw the pixels on the next step...
  const sent = provider.calls[1].messages[5];
  assert.deepEqual(sent.images?.map((i) => i.alt), ["cat.png", ""]);
  assert.equal(sent.images?.[0].data, TINY_PNG);
  // ...and they are gone from the transcript once the run ended; the caption stays.
  assert.equal(injected.images, undefined);
  assert.equal(messages[3].content, "viewed 2 image(s)");
});

Deno.test("images: an unknown vision answer fails open and shows the pixels", async () => {
  const provider = new ScriptedProvider([calls("view", {}), text("ok")], { vision: undefined });
  await new Engine(provider, registry()).run([Message.user("look")]);
  assert.equal(provider.calls[1].messages.at(-2)?.images?.length, 2);
});

Deno.test("images: a definite no-vision model gets the withheld caption and a WARNING", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([calls("view", {}), text("ok")], { vision: false });
  const messages = [Message.user("look")];
  await new Engine(provider, registry(), { journal }).run(messages);
  const note = messages.find((m) => m.injected);
  assert.equal(
    note?.content,
    "(No image input on this model — cat.png, file was described above, not shown.)",
  );
  assert.equal(note?.images, undefined);
  assert.ok(!provider.calls[1].messages.some((m) => m.images?.length));
  assert.ok(
    journal.lines().includes(
      "WARNING view image withheld from a model with no vision images=cat.png, image " +
        "model=script-1 reason=model has no image input",
    ),
  );
});

Deno.test("images: the engine's vision option overrides the provider", async () => {
  const provider = new ScriptedProvider([calls("view", {}), text("ok")], { vision: true });
  const messages = [Message.user("look")];
  await new Engine(provider, registry(), { vision: false }).run(messages);
  assert.match(messages.find((m) => m.injected)?.content ?? "", /^\(No image input/);
});

Deno.test("images: pixels are evicted even when the run fails", async () => {
  const provider = new ScriptedProvider([calls("view", {}), new ProviderAuthError("no", 401)]);
  const messages = [Message.user("look")];
  await assert.rejects(new Engine(provider, registry()).run(messages), ProviderAuthError);
  const injected = messages.find((m) => m.injected);
  assert.equal(injected?.content, "(Showing image: cat.png, image)");
  assert.equal(injected?.images, undefined);
});

Deno.test("images: earlier turns' images are not touched by a later run", async () => {
  const earlier = Message.user("(Showing image: old.png)", { injected: true });
  earlier.images = [image("old.png")];
  const provider = new ScriptedProvider([text("ok")]);
  await new Engine(provider, registry()).run([earlier, Message.user("hi")]);
  assert.equal(earlier.images?.length, 1);
});
