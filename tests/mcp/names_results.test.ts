/** Naming (`<server>__<tool>`, sanitised, ≤ 64) and result rendering (docs/mcp.md). */
import assert from "node:assert/strict";
import {
  MAX_DESCRIPTION,
  mcpToolDescription,
  mcpToolName,
  sanitizeNamePart,
} from "../../lib/mcp/names.ts";
import { capped, formatSize, NO_CONTENT, renderCallResult } from "../../lib/mcp/results.ts";
import { MAX_RESULT_CHARS } from "../../lib/mcp/config.ts";
import { ImageRing } from "../../lib/tools/shared/image_stash.ts";
import { TINY_PNG } from "./http_server.ts";

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

Deno.test("names are sanitised, joined by __ and bounded to 64", () => {
  assert.equal(sanitizeNamePart("a.b c/ü✓"), "a_b_c___");
  assert.equal(sanitizeNamePart(""), "_");
  assert.equal(mcpToolName("my.srv", "get-tiny image"), "my_srv__get-tiny_image");
  assert.equal(mcpToolName("s", ""), "s___");
  const long = mcpToolName("server", "x".repeat(100));
  assert.equal(long.length, 64);
  for (const name of [long, mcpToolName("🚀", "🚀"), mcpToolName("a", "b")]) {
    assert.match(name, VALID);
  }
});

Deno.test("descriptions default and are bounded", () => {
  assert.equal(mcpToolDescription("s", "t", " "), "The 't' tool from MCP server 's'.");
  const long = mcpToolDescription("s", "t", "é".repeat(5000));
  assert.equal(Array.from(long).length, MAX_DESCRIPTION);
  assert.ok(long.endsWith("…"));
});

Deno.test("text joins, isError prefixes, empty says so, other types are noted", () => {
  const ring = new ImageRing();
  const text = (r: Parameters<typeof renderCallResult>[0]) => renderCallResult(r, ring).text;
  assert.equal(
    text({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }),
    "a\nb",
  );
  assert.equal(text({ content: [{ type: "text", text: "bad" }], isError: true }), "Error: bad");
  assert.equal(text({ content: [] }), NO_CONTENT);
  assert.equal(text({}), NO_CONTENT);
  assert.equal(
    text({ content: [{ type: "resource", resource: {} }, 42] }),
    "[resource content]\n[unknown content]",
  );
  assert.equal(text({ content: [], structuredContent: { n: 1 } }), '{"n":1}');
  // Up to the cap a text passes whole; past it, it is cut with the note.
  const full = "y".repeat(MAX_RESULT_CHARS);
  assert.equal(text({ content: [{ type: "text", text: full }] }), full);
  const over = text({ content: [{ type: "text", text: `${full}z` }] });
  assert.ok(over.startsWith(full));
  assert.match(over.slice(full.length), /^\n\[… cut: the tool's result was 100001 characters;/);
  assert.equal(capped("short", 1000), "short");
});

Deno.test("the result cap counts code points: an emoji at the boundary is one character", () => {
  const ring = new ImageRing();
  const emoji = (count: number) =>
    renderCallResult({ content: [{ type: "text", text: "😀".repeat(count) }] }, ring, 1001).text;
  // 1001 emoji are 2002 UTF-16 units but 1001 characters: exactly the cap, so they pass whole.
  assert.equal(emoji(1001), "😀".repeat(1001));
  // One more is cut after the 1001st emoji, and the note counts characters, not units.
  assert.equal(
    emoji(1002),
    `${"😀".repeat(1001)}\n[… cut: the tool's result was 1002 characters; only the first 1001 ` +
      "are shown. Ask the tool for less (a narrower query, one page) if you need the rest.]",
  );
  // Mixed text: the cut lands after the cap's last code point, never inside a pair.
  assert.ok(capped(`${"a".repeat(999)}😀😀`, 1000).startsWith(`${"a".repeat(999)}😀\n[… cut:`));
});

Deno.test("images are stashed, shown when viewable, described otherwise", () => {
  const ring = new ImageRing();
  const out = renderCallResult({
    content: [
      { type: "image", mimeType: "image/png", data: TINY_PNG },
      { type: "image", mimeType: "image/tiff", data: TINY_PNG },
      { type: "image", mimeType: "image/png", data: "!!" },
      { type: "image", mimeType: "image/png", data: "" },
    ],
  }, ring);
  const lines = out.text.split("\n");
  assert.match(
    lines[0],
    /^\[image mcp-image-1: image\/png, 70 B — to share it on this timeline, use the assets tool with action='post_image', image='mcp-image-1'\]$/,
  );
  assert.match(
    lines[1],
    /^\[image mcp-image-2: image\/tiff, .*\(type not viewable to a model; described only\)$/,
  );
  assert.equal(lines[2], "[image: image/png, undecodable data]");
  assert.equal(lines[3], "[image: image/png, no data]");
  assert.equal(out.images?.length, 1);
  assert.deepEqual(out.images?.[0], { alt: "mcp-image-1", mimeType: "image/png", data: TINY_PNG });
  assert.equal(ring.get("latest")?.handle, "mcp-image-2");
  assert.equal(ring.get("mcp-image-1")?.data.length, 70);
});

Deno.test("sizes read as the reference words them", () => {
  assert.equal(formatSize(512), "512 B");
  assert.equal(formatSize(4033), "3.9 KB");
  assert.equal(formatSize(3 * 1024 * 1024), "3.0 MB");
});
