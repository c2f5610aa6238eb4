/** The `assets` tool against the real sandbox: every action, its refusals and its keys. */
import { strict as assert } from "node:assert";
import type { ToolOutput } from "../../lib/core/types/tool.ts";
import { AssetsTool } from "../../lib/tools/assets.ts";
import { ImageRing } from "../../lib/tools/shared/image_stash.ts";
import { contextFor, since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const KEY = "0190f0a4-0000-7000-8000-00000000a55e";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6]);
const keyed = {
  idempotencyKey: (kind: string, id: string) => `${kind}:${id}` === "asset:c1" ? KEY : undefined,
};

const text = (out: string | ToolOutput) => typeof out === "string" ? out : out.text;

Deno.test("assets: unbound, unknown action, missing fields and wrong types are readable errors", async () => {
  assert.match(text(await new AssetsTool().run({ action: "list" })), /not connected to a timeline/);
  await withRoom(async ({ context }) => {
    const tool = new AssetsTool(context);
    assert.equal(
      await tool.run({ action: "zap" }),
      "Error: unknown action 'zap'. Use 'list', 'read', 'view', 'create', or 'post_image'.",
    );
    assert.match(text(await tool.run({})), /^Error: 'action' is required/);
    assert.equal(
      await tool.run({ action: "read" }),
      "Error: 'read' needs the asset's uuid. Use 'list' to find it.",
    );
    assert.equal(
      await tool.run({ action: "create", content: "x" }),
      "Error: 'create' needs both 'content' and a 'filename'.",
    );
    assert.equal(await tool.run({ action: "read", uuid: 7 }), "Error: 'uuid' must be a string.");
  });
});

Deno.test("assets: create sends the context's key, records the act, and a replay returns the same file", async () => {
  await withRoom(async ({ c, context, timeline }) => {
    const tool = new AssetsTool(context);
    assert.equal(await tool.run({ action: "list" }), "No files on this timeline yet.");
    const mark = c.sandbox.requests.length;
    const first = text(
      await tool.run(
        { action: "create", content: "# Notes\nhello", filename: "notes.md", description: "mine" },
        { callId: "c1" },
      ),
    );
    assert.match(
      first,
      /^Uploaded 'notes\.md' \(13 bytes\)\. uuid=\S+ · filename='notes\.md' · 13 bytes · text\/markdown — mine$/,
    );
    const post = since(c, mark).find((r) => r.method === "POST");
    assert.equal(post?.idempotencyKey, KEY);
    assert.deepEqual(context.acts, ["asset"]);

    const again = text(
      await tool.run(
        { action: "create", content: "# Notes\nhello", filename: "notes.md", description: "mine" },
        { callId: "c1" },
      ),
    );
    const uuidOf = (s: string) => /uuid=(\S+)/.exec(s)?.[1];
    assert.equal(uuidOf(again), uuidOf(first));
    assert.equal((await context.client.assets.list({ timeline }).toArray()).length, 1);

    const listed = text(await tool.run({ action: "list" }));
    assert.equal(listed.split("\n")[0], "Files on this timeline (newest first):");
    assert.equal(listed.split("\n").length, 2);

    const read = text(await tool.run({ action: "read", uuid: "latest" }));
    assert.equal(read, `${listed.split("\n")[1]}\n\n# Notes\nhello`);
  }, keyed);
});

Deno.test("assets: read describes binary, audio and oversized files instead of inlining them", async () => {
  await withRoom(async ({ context, agent, timeline }) => {
    const tool = new AssetsTool(context);
    const png = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "pic.png" }),
    );
    assert.match(
      text(await tool.run({ action: "read", uuid: png.content.uuid })),
      /\n\(binary — not inlined\. The file is on the timeline by that uuid\. Use action='view' to look at it\.\)$/,
    );
    const mp3 = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new Uint8Array([0, 1, 2, 3]),
        filename: "voice.mp3",
      }),
    );
    assert.match(
      text(await tool.run({ action: "read", uuid: mp3.content.uuid })),
      /Use the 'listen' tool/,
    );
    const big = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new TextEncoder().encode("a".repeat(256 * 1024 + 1)),
        filename: "big.txt",
      }),
    );
    assert.match(
      text(await tool.run({ action: "read", uuid: big.content.uuid })),
      /\(262145 bytes, over the 262144-byte inline limit — not inlined\./,
    );
  });
});

Deno.test("assets: view hands a vision model the pixels, and 'latest' finds the newest file", async () => {
  await withRoom(async ({ context, agent, timeline }) => {
    const tool = new AssetsTool(context, { vision: true });
    await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: PNG,
        filename: "pic.png",
        description: "a dot",
      }),
    );
    const out = await tool.run({ action: "view", uuid: "latest" });
    assert.equal(typeof out, "object");
    const shown = out as ToolOutput;
    assert.match(shown.text, /^uuid=\S+ · filename='pic\.png' · 14 bytes · image\/png — a dot$/);
    assert.equal(shown.images?.length, 1);
    assert.equal(shown.images?.[0].mimeType, "image/png");
    assert.equal(shown.images?.[0].alt, "pic.png");
    assert.deepEqual(Uint8Array.fromBase64(shown.images?.[0].data ?? ""), PNG);

    const note = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new TextEncoder().encode("hi"),
        filename: "a.txt",
      }),
    );
    assert.match(
      text(await tool.run({ action: "view", uuid: note.content.uuid })),
      /\(not an image — 'view' is for images\. Use 'read' for text files\.\)$/,
    );
  });
});

Deno.test("assets: view on a definite no-vision model returns the description and logs the swap", async () => {
  await withRoom(async ({ c, context, agent, timeline, journal }) => {
    await agent.client.assets.create(timeline, asUser("asset", { file: PNG, filename: "pic.png" }));
    const mark = c.sandbox.requests.length;
    const out = await new AssetsTool(context, { vision: false, model: "text-only-1" })
      .run({ action: "view", uuid: "latest" });
    assert.equal(typeof out, "string");
    assert.match(out as string, /filename='pic\.png'.*\n\(This model has no image input/);
    assert.ok(!since(c, mark).some((r) => r.path.startsWith("/blobs/")), "no pixels downloaded");
    const warning = journal.lines.find((l) => l.includes("view image withheld"));
    assert.ok(warning?.startsWith("WARNING"), journal.lines.join("\n"));
    assert.match(warning ?? "", /images=pic\.png model=text-only-1/);

    // The per-wake context can say so too, overriding the tool's option.
    const extras = Object.assign(contextFor(agent, timeline).context, { vision: false });
    const viaContext = await new AssetsTool(extras, { vision: true }).run({
      action: "view",
      uuid: "latest",
    });
    assert.equal(typeof viaContext, "string");
  });
});

Deno.test("assets: post_image uploads a stashed capture with no key and records the act", async () => {
  await withRoom(async ({ c, context }) => {
    assert.match(
      text(await new AssetsTool(context).run({ action: "post_image" })),
      /^Error: no captured images to post\./,
    );
    const stash = new ImageRing();
    const handle = stash.put(PNG, "image/png");
    assert.equal(handle, "mcp-image-1");
    const tool = new AssetsTool(context, { images: stash });
    assert.equal(
      await tool.run({ action: "post_image", image: "mcp-image-9" }),
      "Error: no captured image 'mcp-image-9'. Use the reference shown in the tool result " +
        "(e.g. 'mcp-image-1'), or 'latest' for the most recent capture.",
    );
    const mark = c.sandbox.requests.length;
    const posted = text(await tool.run({ action: "post_image" }, { callId: "c1" }));
    assert.match(
      posted,
      /^Posted 'capture\.png' \(14 bytes\) from capture 'latest'\. uuid=\S+ · filename='capture\.png' · 14 bytes · image\/png$/,
    );
    const post = since(c, mark).find((r) => r.method === "POST");
    assert.equal(post?.idempotencyKey, null);
    assert.deepEqual(context.acts, ["post_image"]);

    const named = text(
      await tool.run({
        action: "post_image",
        image: handle,
        filename: "shot.png",
        description: "the page",
      }),
    );
    assert.match(
      named,
      /^Posted 'shot\.png' \(14 bytes\) from capture 'mcp-image-1'\..* — the page$/,
    );
  }, keyed);
});

Deno.test("assets: platform refusals are relayed (locked timeline, non-viewer, unknown asset)", async () => {
  await withRoom(async ({ c, context, agent, timeline }) => {
    await agent.client.timelines.lock(timeline);
    const tool = new AssetsTool(context);
    assert.equal(
      await tool.run({ action: "create", content: "x", filename: "x.txt" }),
      "Couldn't create the file: The timeline is locked and is not accepting new content.",
    );
    const stranger = await c.user("stranger");
    const theirs = new AssetsTool(contextFor(stranger, timeline).context);
    assert.equal(
      await theirs.run({ action: "create", content: "x", filename: "x.txt" }),
      "Couldn't create the file: You are not a viewer of this timeline.",
    );
    assert.match(
      text(await tool.run({ action: "read", uuid: "0190f0a4-0000-7000-8000-000000000000" })),
      /^Couldn't read the file: /,
    );
    assert.equal(
      await tool.run({ action: "view", uuid: "latest" }),
      "No files on this timeline yet — nothing to view.",
    );
  });
});

Deno.test("assets: list shows at most 50, newest first, with the note only when a 51st exists", async () => {
  await withRoom(async ({ agent, context, timeline }) => {
    const upload = (i: number) =>
      agent.client.assets.create(
        timeline,
        asUser("asset", {
          file: new TextEncoder().encode(`file ${i}`),
          filename: `f${i}.txt`,
        }),
      );
    for (let i = 1; i <= 50; i++) await upload(i);
    const tool = new AssetsTool(context);
    const exact = text(await tool.run({ action: "list" })).split("\n");
    assert.equal(exact.length, 51);
    assert.match(exact[1], /filename='f50\.txt'/);
    assert.ok(!exact.at(-1)?.startsWith("(showing"));
    await upload(51);
    const capped = text(await tool.run({ action: "list" })).split("\n");
    assert.equal(capped.length, 52);
    assert.match(capped[1], /filename='f51\.txt'/);
    assert.match(capped[50], /filename='f2\.txt'/);
    assert.equal(capped.at(-1), "(showing the 50 most recent; there may be more)");
  });
});

Deno.test("ImageRing keeps the newest captures and never reuses a handle", () => {
  const ring = new ImageRing(2);
  const handles = [1, 2, 3].map((n) => ring.put(new Uint8Array([n]), "image/png"));
  assert.deepEqual(handles, ["mcp-image-1", "mcp-image-2", "mcp-image-3"]);
  assert.equal(ring.get("mcp-image-1"), undefined);
  assert.equal(ring.get("MCP-IMAGE-2")?.data[0], 2);
  assert.equal(ring.get(" latest ")?.handle, "mcp-image-3");
  assert.equal(ring.size, 2);
});
