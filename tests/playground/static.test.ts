/**
 * The page's embedded files: every text response is scrubbed of secrets on its way out, so the
 * page's own code must come through the scrubber byte for byte, or the page would break. Each
 * file stays under 500 lines (one concern each), and every module the script imports is served.
 */
import assert from "node:assert/strict";
import { scrubSecrets } from "../../lib/journal/scrub.ts";
import { STATIC_FILES } from "../../lib/playground/static/mod.ts";

Deno.test("playground: the embedded page, scripts and styles survive the secret scrubber unchanged", () => {
  const paths = Object.keys(STATIC_FILES);
  for (
    const path of ["/", "/app.css", "/views.css", "/studio.css", "/favicon.svg", "/js/main.js"]
  ) {
    assert.ok(paths.includes(path), path);
  }
  for (const [path, file] of Object.entries(STATIC_FILES)) {
    assert.ok(file.body.length > 200, path);
    assert.equal(scrubSecrets(file.body), file.body, `${path} is changed by the scrubber`);
    assert.ok(file.body.split("\n").length < 500, `${path} has 500 lines or more`);
  }
  const page = STATIC_FILES["/"].body;
  assert.match(page, /<script type="module" src="\/js\/main\.js"><\/script>/);
  assert.match(page, /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/);
  // Every stylesheet the page links is served.
  for (const [, href] of page.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)) {
    assert.ok(STATIC_FILES[href], href);
  }
  // The server fills in the run's write token here; the script sends it back on every write.
  assert.ok(page.includes('<meta name="playground-token" content="">'));
  assert.match(STATIC_FILES["/js/api.js"].body, /"playground-token": PAGE_TOKEN/);
  // Every module a script imports is served, so the page never asks for a missing file.
  for (const [path, file] of Object.entries(STATIC_FILES)) {
    if (!path.startsWith("/js/")) continue;
    for (const [, target] of file.body.matchAll(/from "\.\/([a-z_]+\.js)"/g)) {
      assert.ok(STATIC_FILES[`/js/${target}`], `${path} imports ./${target}, which is not served`);
    }
  }
});
