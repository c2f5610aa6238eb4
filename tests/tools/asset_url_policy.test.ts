/**
 * An asset's `file.url` is a URL the platform hands the harness, and the harness reads it through
 * the fetch path's handed door (docs/security.md#one-fetch-path): on the platform's own origin
 * like any call, anywhere else only at a public address, and never a `file:` path. Real sandbox
 * assets, read through a client whose platform answers carry a hostile `file.url` (a compromised
 * platform, or one in the middle): `file:///…` is never read from disk, an internal or metadata
 * address is never dialled, the model is told the file could not be read, and the wake's journal
 * says what was refused. The untouched URL, read the same way, is the control.
 */
import assert from "node:assert/strict";
import type { ToolOutput } from "../../lib/core/types/tool.ts";
import { urlRefused } from "../../lib/journal/catalogue_wake.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { onUrlRefused } from "../../lib/net/refusal.ts";
import { type PlatformClient, RefusedUrlError } from "../../lib/platform/mod.ts";
import { renderAsset } from "../../lib/runtime/item_text.ts";
import { AssetsTool } from "../../lib/tools/assets.ts";
import { SimpleContext } from "../../lib/tools/shared/simple_context.ts";
import { perceiveAsset } from "../../lib/wake/asset_view.ts";
import type { Contract, Peer } from "../contract/helpers.ts";
import { startStub } from "../support/http_stub.ts";
import { withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const text = (out: string | ToolOutput) => typeof out === "string" ? out : out.text;

/** Every `file.url` in a JSON answer replaced by `url`. */
function rewrite(value: unknown, url: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, url));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === "file" && v !== null && typeof v === "object"
      ? { ...v, url }
      : rewrite(v, url);
  }
  return out;
}

/** A client for `peer` whose platform answers hand out `url` as every asset's file URL. */
function hostileClient(c: Contract, peer: Peer, url: string): PlatformClient {
  return c.client({
    token: peer.token,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (!response.headers.get("content-type")?.includes("json")) return response;
      const body = rewrite(await response.json(), url);
      return new Response(JSON.stringify(body), {
        status: response.status,
        headers: response.headers,
      });
    },
  });
}

/** The agent's room with a text file and a PNG in it; `fn` gets their uuids. */
function withFiles(
  fn: (room: Parameters<Parameters<typeof withRoom>[0]>[0], files: {
    note: string;
    image: string;
  }) => Promise<void>,
) {
  return withRoom(async (room) => {
    const { agent, timeline } = room;
    const note = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new TextEncoder().encode("the real note"),
        filename: "note.txt",
        contentType: "text/plain",
      }),
    );
    const image = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: PNG,
        filename: "dot.png",
        contentType: "image/png",
      }),
    );
    await fn(room, { note: note.content.uuid, image: image.content.uuid });
  });
}

/** Runs `fn` with the wake's `url refused` journal installed; returns the journal. */
async function journaled(fn: (journal: MemoryJournal) => Promise<void>): Promise<string[]> {
  const journal = new MemoryJournal();
  onUrlRefused((refusal) => urlRefused(journal, refusal));
  try {
    await fn(journal);
  } finally {
    onUrlRefused(null);
  }
  return journal.lines;
}

Deno.test("asset file.url: a file:// URL is never read from disk; the model is told it could not be read", async () => {
  const secret = await Deno.makeTempFile({ prefix: "asset-url-" });
  await Deno.writeTextFile(secret, "BASECRADLE_TOKEN=bc_uat_on_disk\n");
  try {
    await withFiles(async ({ c, agent, timeline }, { note, image }) => {
      // The control: the same tool through an honest client reads the note.
      const honest = new AssetsTool(
        new SimpleContext({ client: agent.client, timeline, self: agent }),
      );
      assert.match(text(await honest.run({ action: "read", uuid: note })), /the real note/);

      const client = hostileClient(c, agent, `file://${secret}`);
      const tool = new AssetsTool(new SimpleContext({ client, timeline, self: agent }));
      const lines = await journaled(async () => {
        const read = text(await tool.run({ action: "read", uuid: note }));
        assert.equal(
          read,
          "Couldn't read the file: the URL file:… was refused: only http and https URLs are fetched.",
        );
        const view = text(await tool.run({ action: "view", uuid: image }));
        assert.match(view, /^Couldn't view the file: the URL file:… was refused/);
        for (const out of [read, view]) assert.doesNotMatch(out, /bc_uat_on_disk|asset-url-/);
      });
      assert.deepEqual(lines, [
        'WARNING url refused via=platform target=file: reason="only http and https URLs are fetched"',
        'WARNING url refused via=platform target=file: reason="only http and https URLs are fetched"',
      ]);
    });
  } finally {
    await Deno.remove(secret);
  }
});

Deno.test("asset file.url: an internal or metadata address off the platform is never dialled", async () => {
  await using internal = await startStub(() => new Response(PNG));
  await withFiles(async ({ c, agent, timeline }, { note, image }) => {
    for (
      const [url, reason] of [
        [`${internal.url}/admin/dot.png`, /127\.0\.0\.1 is a loopback address/],
        [
          "http://169.254.169.254/latest/user-data",
          /169\.254\.169\.254 is a cloud metadata address/,
        ],
        ["http://[fd00:ec2::254]/latest/meta-data/", /fd00:ec2::254 is a cloud metadata address/],
      ] as const
    ) {
      const client = hostileClient(c, agent, url);
      const tool = new AssetsTool(new SimpleContext({ client, timeline, self: agent }));
      assert.match(text(await tool.run({ action: "read", uuid: note })), reason);
      assert.match(text(await tool.run({ action: "view", uuid: image })), reason);
      await assert.rejects(
        client.assets.download(await client.assets.get(image)),
        (e) => e instanceof RefusedUrlError && e.status === undefined && reason.test(e.message),
      );
    }
  });
  assert.equal(internal.requests.length, 0, "the internal server was never reached");
});

Deno.test("asset file.url: a refused URL in perception is the text form, saying the file could not be read", async () => {
  await withFiles(async ({ c, agent }, { image }) => {
    const client = hostileClient(c, agent, "file:///etc/passwd");
    const asset = await client.assets.get(image);
    const journal = new MemoryJournal();
    const seen = await perceiveAsset({
      assets: client.assets,
      journal,
      timeline: "tl-1",
      provider: () => Promise.resolve({ supportsVision: () => true }),
    }, asset);
    assert.equal(seen.images, undefined, "no pixels from a refused URL");
    assert.equal(
      seen.text,
      `${renderAsset(asset)} (Its file could not be read: the URL file:… was refused: only ` +
        "http and https URLs are fetched.)",
    );
    assert.match(journal.lines.join("\n"), /WARNING Could not download asset .* was refused/);
  });
});
