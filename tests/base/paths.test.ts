/** lib/base/paths.ts stands in for node:path on the wake's start-up path: same results. */
import assert from "node:assert/strict";
import { posix } from "node:path";
import {
  basename,
  dirname,
  expandHome,
  isAbsolute,
  join,
  normalize,
} from "../../lib/base/paths.ts";

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

Deno.test("expandHome expands ~ and ~/ against home, and nothing else", () => {
  assert.equal(expandHome("~", "/home/a"), "/home/a");
  assert.equal(expandHome("~/x/y", "/home/a"), "/home/a/x/y");
  assert.equal(expandHome("~/x/../y", "/home/a/"), "/home/a/y");
  // Another user's home, a tilde inside a name, and absolute or relative paths stay as given.
  for (const path of ["~bob/x", "/abs/~/x", "rel/x", "x~", ""]) {
    assert.equal(expandHome(path, "/home/a"), path);
    assert.equal(expandHome(path, undefined), path);
  }
  // A path that needs a home without one: the caller decides (refuse, or read it as written).
  assert.equal(expandHome("~", undefined), undefined);
  assert.equal(expandHome("~/x", ""), undefined);
});
