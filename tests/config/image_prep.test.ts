/**
 * image_prep.json (docs/configuration.md#image_prepjson): absent is the defaults, `"*"` and a
 * model's own entry overlay them in that order, `null` switches preparation off, and a bad value
 * refuses to load naming the file, the key and the fix.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import { IMAGE_PREP_FILE, loadImagePrep, resolveImagePrep } from "../../lib/config/image_prep.ts";
import { DEFAULT_IMAGE_PREP } from "../../lib/core/types/image_policy.ts";
import { tempHome, write } from "./install_support.ts";

async function withFile(text: string | undefined, body: (home: string) => Promise<void>) {
  const { home, cleanup } = await tempHome();
  try {
    if (text !== undefined) await write(home, IMAGE_PREP_FILE, text);
    await body(home);
  } finally {
    await cleanup();
  }
}

Deno.test("image_prep.json: absent is the defaults", async () => {
  await withFile(undefined, async (home) => {
    assert.deepEqual(await loadImagePrep(home, "gpt-5.1"), DEFAULT_IMAGE_PREP);
  });
});

Deno.test("image_prep.json: '*' then the model's own entry overlay the defaults", async () => {
  const file = { "*": { max_images: 10 }, "gpt-5.1": { max_long_edge: 2048 } };
  await withFile(JSON.stringify(file), async (home) => {
    assert.deepEqual(await loadImagePrep(home, "gpt-5.1"), {
      ...DEFAULT_IMAGE_PREP,
      maxImages: 10,
      maxLongEdge: 2048,
    });
    assert.deepEqual(await loadImagePrep(home, "grok-4"), { ...DEFAULT_IMAGE_PREP, maxImages: 10 });
  });
});

Deno.test("image_prep.json: null switches preparation off, the model's entry winning", () => {
  assert.equal(resolveImagePrep({ "local-llava": null }, "local-llava"), null);
  assert.equal(resolveImagePrep({ "*": null }, "gpt-5.1"), null);
  assert.deepEqual(resolveImagePrep({ "*": null, "gpt-5.1": {} }, "gpt-5.1"), DEFAULT_IMAGE_PREP);
  assert.deepEqual(resolveImagePrep({ "local-llava": null }, "gpt-5.1"), DEFAULT_IMAGE_PREP);
});

Deno.test("image_prep.json: a bad value refuses naming the file, the key and the fix", async () => {
  const refusal = (value: unknown) => {
    try {
      resolveImagePrep(value, "gpt-5.1");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.variable, IMAGE_PREP_FILE);
      return error.message;
    }
    assert.fail("no refusal");
  };
  assert.match(
    refusal({ "gpt-5.1": { max_images: -1 } }),
    /^image_prep\.json key 'gpt-5\.1\.max_images' must be an integer from 0 to 500 \(images\) .*Fix: set it to/,
  );
  assert.match(
    refusal({ "*": { max_image: 3 } }),
    /^image_prep\.json key '\*\.max_image' is not an image preparation setting\. Fix: use one of segment_height, /,
  );
  assert.match(
    refusal({ "*": 5 }),
    /^image_prep\.json key '\*' must be a policy object or null .*Fix:/,
  );
  assert.match(refusal([1]), /^image_prep\.json must be a JSON object .*Fix:/);
  assert.match(
    refusal({ "gpt-5.1": { segment_height: 300, segment_overlap: 300 } }),
    /^image_prep\.json key 'gpt-5\.1\.segment_overlap' \(300\) must be smaller than segment_height \(300\)\. Fix:/,
  );
  await withFile("{nope", async (home) => {
    await assert.rejects(
      loadImagePrep(home, "gpt-5.1"),
      (error: Error) =>
        error instanceof ConfigError &&
        /image_prep\.json is not valid JSON: .*Fix:/.test(error.message),
    );
  });
});
