/**
 * The pure pieces behind `web_fetch`: the HTML reducer, character references, content types,
 * the reference's quoting, the capped reader and the HTTP/1.1 response parser (fed from
 * memory, so framing edge cases are exercised without a server).
 */
import assert from "node:assert/strict";
import { ByteReader } from "../../lib/net/byte_reader.ts";
import { charsetOf, isHtmlType, isTextType, mediaType } from "../../lib/tools/net/content_type.ts";
import { decodeEntities } from "../../lib/tools/net/html_entities.ts";
import { htmlToText } from "../../lib/tools/net/html_text.ts";
import { bodyFrames, ProtocolError, readResponseHead, requestHead } from "../../lib/net/http1.ts";
import { pyRepr } from "../../lib/pycompat/repr.ts";
import { readCapped } from "../../lib/net/read_capped.ts";

// --- HTML to text -------------------------------------------------------------------------

Deno.test("HTML keeps headings, paragraphs, lists, tables and pre; drops script, style, noscript", () => {
  const page = htmlToText(`<!doctype html><html><head><title>The &amp; Title</title>
<style>body{color:red}</style><script>var x = "<p>not text</p>";</script></head>
<body><noscript>Enable JS</noscript><h1>Main heading</h1>
<p>First   paragraph
with <b>bold</b> and &lt;tags&gt; &mdash; done.</p>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol><li>alpha</li><li>beta</li></ol>
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
<pre>  keep
   spacing</pre><!-- a <p>comment</p> --><h3>Sub</h3><p>caf&eacute; &#x1F600; &#8212;<br>next line</p>
<svg><text>icon</text></svg><template><p>hidden</p></template></body></html>`);
  assert.equal(page.title, "The & Title");
  assert.equal(
    page.text,
    [
      "# Main heading",
      "",
      "First paragraph with bold and <tags> — done.",
      "",
      "- one",
      "- two",
      "  - nested",
      "",
      "1. alpha",
      "2. beta",
      "",
      "a | b",
      "1 | 2",
      "",
      "  keep",
      "   spacing",
      "",
      "### Sub",
      "",
      "café 😀 —",
      "next line",
    ].join("\n"),
  );
});

Deno.test("malformed HTML never throws and loses no visible text", () => {
  assert.equal(htmlToText("a < b and c<d").text, "a < b and c");
  assert.equal(htmlToText("<p>open <!-- never closed").text, "open");
  assert.equal(htmlToText("<script>never closed <p>x</p>").text, "");
  assert.equal(htmlToText('<a title="x > y">link</a> after').text, "link after");
  assert.equal(htmlToText("<P>Upper</P><SCRIPT>hidden()</SCRIPT><Br>case").text, "Upper\n\ncase");
  assert.equal(htmlToText("<div>İstanbul <script>x</script>ok</div>").text, "İstanbul ok");
  assert.equal(htmlToText("").text, "");
  assert.equal(htmlToText("<title>  Spaced \n title </title>").title, "Spaced title");
  assert.equal(htmlToText("<svg><svg></svg><text>deep</text></svg>shown").text, "shown");
});

Deno.test("inline elements do not break words; whitespace between them survives", () => {
  assert.equal(
    htmlToText("<p>un<b>broken</b> word <i>and</i> <em>spaced</em></p>").text,
    "unbroken word and spaced",
  );
});

Deno.test("character references: named, numeric, legacy and unknown, as a browser reads them", () => {
  assert.equal(decodeEntities("&amp;&lt;&gt;&quot;&apos;&nbsp;"), "&<>\"'\u00a0");
  assert.equal(decodeEntities("&#65;&#x42;&#X43;&#0;&#xD800;&#x110000;"), "ABC\ufffd\ufffd\ufffd");
  assert.equal(decodeEntities("&copy 2024 &amp without"), "© 2024 & without");
  assert.equal(decodeEntities("&eacute;&Eacute;&hellip;&euro;"), "éÉ…€");
  // Every name of the HTML standard, not only Latin-1 and common punctuation.
  assert.equal(decodeEntities("&alpha;&Omega;&rarr;&NotEqualTilde;&fjlig;"), "αΩ→≂̸fj");
  // 128–159 are windows-1252 code points to a browser, never C1 controls.
  assert.equal(decodeEntities("1&#150;2 &#128;5 &#x93;q&#x94; &#153;"), "1–2 €5 “q” ™");
  // A legacy name without its semicolon decodes, as it does in a browser's text; an unknown
  // name, or a non-legacy one without the semicolon, stays as written.
  assert.equal(decodeEntities("&eacute &bogus; &alpha &"), "é &bogus; &alpha &");
  assert.equal(decodeEntities("no references"), "no references");
});

Deno.test("a page's entities reach the model's text and title decoded", () => {
  const page = htmlToText(
    "<title>&alpha; &ndash; &Omega;</title><p>Range 1&#150;2, &frac12;&nbsp;cup &amp; more</p>",
  );
  assert.equal(page.title, "α – Ω");
  assert.equal(page.text, "Range 1–2, ½ cup & more"); // the text layer folds the nbsp
});

// --- content types and quoting ------------------------------------------------------------

Deno.test("content types: text, HTML and charset detection", () => {
  assert.equal(mediaType("Text/HTML; charset=UTF-8"), "text/html");
  assert.equal(mediaType(null), "");
  for (
    const t of [
      "text/plain",
      "text/csv",
      "application/json",
      "application/ld+json",
      "image/svg+xml",
      "application/x-yaml",
    ]
  ) {
    assert.ok(isTextType(t), t);
  }
  for (
    const t of ["image/png", "application/pdf", "application/octet-stream", "application/zip", ""]
  ) {
    assert.ok(!isTextType(t), t);
  }
  assert.ok(isHtmlType("application/xhtml+xml"));
  const none = new Uint8Array();
  assert.equal(charsetOf("text/plain; charset=ISO-8859-1", none, false), "windows-1252");
  assert.equal(charsetOf('text/html; charset="utf-8"', none, true), "utf-8");
  assert.equal(charsetOf("text/plain; charset=nonsense", none, false), "utf-8");
  const meta = new TextEncoder().encode('<html><head><meta charset="shift_jis"></head>');
  assert.equal(charsetOf("text/html", meta, true), "shift_jis");
  assert.equal(charsetOf("text/plain", meta, false), "utf-8");
});

Deno.test("urls are quoted the way Python's repr quotes them", () => {
  assert.equal(pyRepr("https://a.example/"), "'https://a.example/'");
  assert.equal(pyRepr("https://a.example/it's"), `"https://a.example/it's"`);
  assert.equal(pyRepr(`https://a.example/'"`), `'https://a.example/\\'"'`);
  assert.equal(pyRepr("a\\b\n\x01"), "'a\\\\b\\n\\x01'");
});

// --- capped reading -----------------------------------------------------------------------

Deno.test("readCapped stops one chunk past the cap and cancels the source", async () => {
  let pulls = 0;
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(100).fill(pulls));
    },
    cancel() {
      cancelled = true;
    },
  });
  const { bytes, truncated } = await readCapped(source, 250);
  assert.equal(bytes.length, 250);
  assert.ok(truncated);
  assert.ok(cancelled);
  assert.ok(pulls <= 5, `read ${pulls} chunks for a 250-byte cap`);
  assert.deepEqual([bytes[0], bytes[100], bytes[249]], [1, 2, 3]);
  const short = await readCapped(new Blob(["abc"]).stream(), 3);
  assert.deepEqual([short.bytes.length, short.truncated], [3, false]);
});

// --- the HTTP/1.1 parser ------------------------------------------------------------------

/** A ByteReader over fixed chunks, as a socket would deliver them. */
function readerOf(...chunks: string[]): ByteReader {
  const queue = chunks.map((c) => new TextEncoder().encode(c));
  return new ByteReader((buffer) => {
    const next = queue.shift();
    if (!next) return Promise.resolve(null);
    const count = Math.min(next.length, buffer.length);
    buffer.set(next.subarray(0, count));
    if (count < next.length) queue.unshift(next.subarray(count));
    return Promise.resolve(count);
  });
}

async function parse(
  ...chunks: string[]
): Promise<{ status: number; headers: Headers; body: string }> {
  const reader = readerOf(...chunks);
  const head = await readResponseHead(reader);
  let body = "";
  for await (const piece of bodyFrames(reader, head)) body += new TextDecoder().decode(piece);
  return { ...head, body };
}

Deno.test("request head: Host first, path and query only, no fragment", () => {
  assert.equal(
    requestHead(new URL("https://a.example:8443/p%20q?x=1#frag"), { "User-Agent": "t" }),
    "GET /p%20q?x=1 HTTP/1.1\r\nHost: a.example:8443\r\nUser-Agent: t\r\n\r\n",
  );
  assert.throws(() => requestHead(new URL("https://a.example/"), { X: "a\r\nInjected: 1" }));
});

Deno.test("response framing: Content-Length, chunked split across reads, and read-to-close", async () => {
  const sized = await parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA");
  assert.deepEqual([sized.status, sized.body], [200, "hello"]);
  const chunked = await parse(
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWi",
    "ki\r\n5;ext=1\r\npedia\r\n0\r\nTrailer: x\r\n\r\nGARBAGE",
  );
  assert.equal(chunked.body, "Wikipedia");
  const closed = await parse("HTTP/1.0 200 OK\nContent-Type: text/plain\n\nuntil ", "the end");
  assert.deepEqual([closed.body, closed.headers.get("content-type")], [
    "until the end",
    "text/plain",
  ]);
  const empty = await parse("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n");
  assert.equal(empty.body, "");
});

Deno.test("interim 1xx responses are skipped; folded headers are joined", async () => {
  const response = await parse(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n",
    "HTTP/1.1 302 Found\r\nLocation: /next\r\nX-Folded: a\r\n  b\r\nContent-Length: 0\r\n\r\n",
  );
  assert.deepEqual([response.status, response.headers.get("location")], [302, "/next"]);
  assert.equal(response.headers.get("x-folded"), "a b");
});

Deno.test("malformed responses are protocol errors, not crashes", async () => {
  const cases: [string[], RegExp][] = [
    [["SSH-2.0-OpenSSH\r\n\r\n"], /did not answer with HTTP\/1\.x/],
    [[""], /closed the connection without a response/],
    [["HTTP/1.1 200 OK\r\nA: b\r\n"], /closed the connection mid-header/],
    [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"], /malformed chunked body/],
    [["HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"], /unsupported transfer-encoding/],
    [["HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n"], /invalid Content-Length/],
    [["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"], /invalid Content-Length/],
    [[`HTTP/1.1 200 OK\r\nBig: ${"x".repeat(70_000)}\r\n\r\n`], /oversized/],
  ];
  for (const [chunks, expected] of cases) {
    await assert.rejects(parse(...chunks), (e: unknown) => {
      assert.ok(e instanceof Error && expected.test(e.message), `${chunks[0].slice(0, 40)}: ${e}`);
      return true;
    });
  }
  await assert.rejects(parse("HTTP/1.1 200 OK\r\n\r\n".replace("200", "20x")), ProtocolError);
});
