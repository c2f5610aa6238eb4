/**
 * The page's embedded files: every text response is scrubbed of secrets on its way out, so the
 * page's own code must come through the scrubber byte for byte, or the page would break.
 */
import assert from "node:assert/strict";
import { scrubSecrets } from "../../lib/journal/scrub.ts";
import { STATIC_FILES } from "../../lib/playground/static/mod.ts";

Deno.test("playground: the embedded page, script and style survive the secret scrubber unchanged", () => {
  assert.deepEqual(Object.keys(STATIC_FILES).sort(), ["/", "/app.css", "/app.js"]);
  for (const [path, file] of Object.entries(STATIC_FILES)) {
    assert.ok(file.body.length > 500, path);
    assert.equal(scrubSecrets(file.body), file.body, `${path} is changed by the scrubber`);
  }
  assert.match(STATIC_FILES["/"].body, /<script type="module" src="\/app\.js"><\/script>/);
  // The server fills in the run's write token here; the script sends it back on every write.
  assert.ok(STATIC_FILES["/"].body.includes('<meta name="playground-token" content="">'));
  assert.match(STATIC_FILES["/app.js"].body, /"playground-token": PAGE_TOKEN/);
});
