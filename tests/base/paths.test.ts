/** lib/base/paths.ts stands in for node:path on the wake's start-up path: same results. */
import assert from "node:assert/strict";
import { posix } from "node:path";
import { basename, dirname, isAbsolute, join, normalize } from "../../lib/base/paths.ts";

const SAMPLES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///a",
  "//a",
  "a",
  "a/",
  "a//",
  "/a",
  "/a/",
  "/a/b",
  "/a/b/",
  "a/b/c",
  "./a",
  "../a",
  "a/..",
  "a/../",
  "a/../..",
  "/..",
  "/../a",
  "a/./b/../c",
  "/home/bot/.config/basecradle",
  "~/x",
  "a/b/../../..//c/",
  ".hidden",
  "/tmp/x.1234-abcd.tmp",
];

Deno.test("normalize, dirname, basename and isAbsolute match node:path posix", () => {
  for (const path of SAMPLES) {
    assert.equal(normalize(path), posix.normalize(path), `normalize(${JSON.stringify(path)})`);
    assert.equal(dirname(path), posix.dirname(path), `dirname(${JSON.stringify(path)})`);
    assert.equal(basename(path), posix.basename(path), `basename(${JSON.stringify(path)})`);
    assert.equal(isAbsolute(path), posix.isAbsolute(path), `isAbsolute(${JSON.stringify(path)})`);
  }
});

Deno.test("join matches node:path posix", () => {
  assert.equal(join(), posix.join());
  for (const a of SAMPLES) {
    for (const b of ["", "b", "/b", "../b", "b/", "sessions", "timeline:x.json"]) {
      assert.equal(
        join(a, b),
        posix.join(a, b),
        `join(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
      );
      assert.equal(join(a, b, "c"), posix.join(a, b, "c"));
    }
  }
});
