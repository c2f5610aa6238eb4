import assert from "node:assert/strict";
import { closest, didYouMean, editDistance } from "../../lib/base/suggest.ts";

Deno.test("editDistance: insertions, deletions, substitutions and neighbour swaps cost one", () => {
  assert.equal(editDistance("wake", "wake"), 0);
  assert.equal(editDistance("wak", "wake"), 1);
  assert.equal(editDistance("wakee", "wake"), 1);
  assert.equal(editDistance("wske", "wake"), 1);
  assert.equal(editDistance("wkae", "wake"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("closest: a plausible typo is answered, an unrelated word is not", () => {
  const commands = ["wake", "poll", "version", "verify", "install"];
  assert.equal(closest("instal", commands), "install");
  assert.equal(closest("VERIFY", commands), "verify");
  assert.equal(closest("frobnicate", commands), undefined);
  assert.equal(closest("ins", commands), "install", "a prefix names the command");
  assert.equal(closest("", commands), undefined);
  assert.equal(closest("x", []), undefined);
  assert.equal(didYouMean("--jsno", ["--json", "--help"]), " Did you mean '--json'?");
  assert.equal(didYouMean("--zzzzzz", ["--json"]), "");
});
