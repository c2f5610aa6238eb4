/** The folds own-secret matching uses: what collapses, what stays, and the way back to the body. */
import { strict as assert } from "node:assert";
import confusableTable from "unhomoglyph/data.json" with { type: "json" };
import { foldSkeleton, foldVisible } from "../../lib/gate/mod.ts";
import * as z from "../../lib/base/zod.ts";

Deno.test("fold: the confusables table is one code point → a prototype string, thousands of them", () => {
  const table = z.record(z.string(), z.string()).parse(confusableTable);
  const keys = Object.keys(table);
  assert.ok(keys.length > 6000, `${keys.length} entries`);
  assert.ok(keys.every((k) => [...k].length === 1), "every key is a single code point");
  assert.equal(table["а"], "a"); // Cyrillic a
  assert.equal(table["0"], "O");
});

Deno.test("fold: the visible fold drops invisible characters and undoes compatibility forms", () => {
  assert.equal(
    foldVisible("a\u200bb\u200cc\u200dd\u2060e\ufefff\u00adg\u202eh\u2066i").text,
    "abcdefghi",
  );
  assert.equal(foldVisible("ＡＢＣ１２３").text, "ABC123");
  assert.equal(foldVisible("café e\u0301 ﬁ ²").text, "cafe e fi 2");
  assert.equal(foldVisible("\u3164x\ufe0fy").text, "xy"); // Hangul filler, variation selector
  assert.equal(foldVisible("plain ASCII stays as it is").text, "plain ASCII stays as it is");
});

Deno.test("fold: the skeleton collapses case, confusables and separators", () => {
  const a = foldSkeleton("Ab3-dEf_5gH.7j K9").text;
  for (
    const spelling of [
      "AB3DEF5GH7JK9",
      "ab3def5gh7jk9",
      "Аb3dЕf5gН7ј К9", // Cyrillic А, Е, Н, ј and Greek Κ
      "Ａｂ３ｄＥｆ５ｇＨ７ｊＫ９",
      "A\u200bb\u00ad3 d E f 5 g H 7 j K 9",
    ]
  ) {
    assert.equal(foldSkeleton(spelling).text, a, spelling);
  }
  assert.equal(foldSkeleton("I l 1 i |").text, "lllll");
  assert.equal(foldSkeleton("O0o").text, "ooo");
  assert.equal(foldSkeleton("m").text, "rn");
});

Deno.test("fold: a span of the fold is a span of the original, which is never changed", () => {
  const body = "key: Ａ\u200bｂ３ end";
  const skeleton = foldSkeleton(body);
  const at = skeleton.text.indexOf("ab3");
  const [start, end] = skeleton.span(at, at + 3);
  assert.equal(body.slice(start, end), "Ａ\u200bｂ３");
  const visible = foldVisible("x\u200by😀z");
  assert.equal(visible.text, "xy😀z");
  assert.deepEqual(visible.span(2, 4), [3, 5]); // the emoji: two units, one character
  assert.equal(body, "key: Ａ\u200bｂ３ end");
});
