/**
 * Python-compatible JSON and file names: the pieces that make a transcript written by this runtime
 * byte-identical to the reference's. Expected values were produced by CPython 3's `json` and
 * `urllib.parse` and are pinned here as literals.
 */
import assert from "node:assert/strict";
import {
  dumpsIndented,
  jsonSize,
  parsePythonJson,
  pythonFloatRepr,
} from "../../lib/pycompat/json.ts";
import { quote, unquote } from "../../lib/pycompat/quote.ts";

Deno.test("floats are written in Python's repr", () => {
  const cases: [number, string][] = [
    [0.1, "0.1"],
    [1.5, "1.5"],
    [1e16, "1e+16"],
    [1e15, "1000000000000000.0"],
    [1234567890123456.7, "1234567890123456.8"],
    [12345678901234567, "1.2345678901234568e+16"],
    [1e-4, "0.0001"],
    [1e-5, "1e-05"],
    [1.2345e-7, "1.2345e-07"],
    [1e100, "1e+100"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-2.5, "-2.5"],
    [3e20, "3e+20"],
    [100, "100.0"],
    [-0, "-0.0"],
    [Infinity, "Infinity"],
  ];
  for (const [value, python] of cases) assert.equal(pythonFloatRepr(value), python, python);
});

Deno.test("number spellings survive a parse/dump round trip (1.0 stays 1.0)", () => {
  const text =
    "[\n  1.0,\n  -0.0,\n  2,\n  0,\n  12345678901234567890123,\n  1e+16,\n  1e-05,\n  0.1\n]";
  assert.equal(dumpsIndented(parsePythonJson(text)), text);
  // Non-canonical spellings are written the way Python would re-write them.
  assert.equal(dumpsIndented(parsePythonJson("[1E5, 1.50, -0]")), "[\n  100000.0,\n  1.5,\n  0\n]");
  // Floats that round to an integer only at the 17th digit are still floats.
  assert.equal(
    dumpsIndented(parsePythonJson("[0.99999999999999999, 999999999999999.99, 2.50]")),
    "[\n  1.0,\n  1000000000000000.0,\n  2.5\n]",
  );
  // A value changed in memory loses its recorded spelling.
  const data = parsePythonJson('{"a": 1.0, "b": 1.0}') as Record<string, number>;
  data.b = 2;
  assert.equal(dumpsIndented(data), '{\n  "a": 1.0,\n  "b": 2\n}');
  // Numbers computed in JS: integral as an int, otherwise a float repr.
  assert.equal(dumpsIndented([3, 0.5, 1e-7]), "[\n  3,\n  0.5,\n  1e-07\n]");
});

Deno.test("indent=2, ensure_ascii=True: Python's separators, escapes and empties", () => {
  const value = {
    s: '日本 😀 \u007f \u2028 "q" \\ \n\t\b\f\r \u0001 \ud800 /',
    empty: [],
    obj: {},
    nested: [[], {}, [null, true, false]],
  };
  // json.dumps(value, indent=2, ensure_ascii=True) in CPython:
  const python = "{\n" +
    '  "s": "\\u65e5\\u672c \\ud83d\\ude00 \\u007f \\u2028 \\"q\\" \\\\ \\n\\t\\b\\f\\r \\u0001 \\ud800 /",\n' +
    '  "empty": [],\n  "obj": {},\n  "nested": [\n    [],\n    {},\n    [\n      null,\n' +
    "      true,\n      false\n    ]\n  ]\n}";
  assert.equal(dumpsIndented(value), python);
  assert.equal(dumpsIndented([]), "[]");
});

Deno.test("jsonSize is len(json.dumps(v, ensure_ascii=False)) in code points", () => {
  assert.equal(jsonSize("日".repeat(500)), 502); // Python: 502 (escaped form: 3002)
  assert.equal(jsonSize("😀".repeat(3)), 5); // one code point each
  assert.equal(jsonSize('a\u0001\n"\\'), 15);
  assert.equal(jsonSize("\ud800x"), 4); // a lone surrogate is one code point, written raw
  assert.equal(jsonSize({ a: [1, 2.5, null, true] }), 27);
  assert.equal(jsonSize({}), 2);
  assert.equal(jsonSize({ k: {} }), 9);
  assert.equal(jsonSize(parsePythonJson('{"x": 1.0}')), 10); // 1.0 costs three, as in Python
});

Deno.test("quote is urllib.parse.quote(x, safe='') and unquote reverses it", () => {
  const cases: [string, string][] = [
    [
      "timeline:5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b",
      "timeline%3A5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b",
    ],
    ["a b/c?d=é😀~._-", "a%20b%2Fc%3Fd%3D%C3%A9%F0%9F%98%80~._-"],
    ["github:pr-123", "github%3Apr-123"],
    ["default", "default"],
    ["%41", "%2541"],
    ["100%", "100%25"],
  ];
  for (const [text, python] of cases) {
    assert.equal(quote(text), python);
    assert.equal(unquote(python), text);
  }
  // Python's unquote keeps a malformed escape and replaces invalid UTF-8.
  assert.equal(unquote("a%2Fb%zz%E6%97%A5%ff"), "a/b%zz日\ufffd");
});

Deno.test("dumpsIndented: values JSON cannot spell are written as the Python walk writes them", () => {
  // NaN and ±Infinity have no JSON spelling to splice raw: the slower walk writes Python's tokens.
  assert.equal(
    dumpsIndented({ a: [NaN, Infinity, -Infinity], b: 1.5 }),
    '{\n  "a": [\n    NaN,\n    Infinity,\n    -Infinity\n  ],\n  "b": 1.5\n}',
  );
  // Skipped in objects, null in arrays, "null" alone — as JS (and the walk) always did.
  assert.equal(
    dumpsIndented({ gone: undefined, f: () => 1, list: [undefined, Symbol("s")], n: 2 ** 53 + 2 }),
    '{\n  "list": [\n    null,\n    null\n  ],\n  "n": 9007199254740994\n}',
  );
  assert.equal(dumpsIndented(undefined), "null");
  assert.equal(dumpsIndented(12345678901234567890n), "12345678901234567890");
  assert.equal(
    dumpsIndented({ é: "ü\u2028𝄞" }),
    '{\n  "\\u00e9": "\\u00fc\\u2028\\ud834\\udd1e"\n}',
  );
});

Deno.test("dumpsIndented: a recorded spelling survives deep inside arrays and objects", () => {
  const text =
    '{\n  "m": [\n    {\n      "x": 1.0,\n      "y": [\n        2.50,\n        1E2\n      ]\n    }\n  ]\n}';
  const data = parsePythonJson(text) as { m: { x: number; y: number[] }[] };
  assert.equal(
    dumpsIndented(data),
    '{\n  "m": [\n    {\n      "x": 1.0,\n      "y": [\n        2.5,\n        100.0\n      ]\n    }\n  ]\n}',
  );
  data.m[0].x = 3; // a changed value loses its old spelling
  assert.match(dumpsIndented(data), /"x": 3,/);
});

Deno.test("dumpsIndented: a Date or a boxed primitive is written as the walk writes it, not via toJSON", () => {
  // Transcripts hold plain data; should anything else slip in, the output does not depend on
  // whether JSON.stringify or the walk wrote the document.
  const value = { at: new Date(0), n: new Number(1.5), s: new String("x"), ok: 2 };
  assert.equal(
    dumpsIndented(value),
    '{\n  "at": {},\n  "n": {},\n  "s": {\n    "0": "x"\n  },\n  "ok": 2\n}',
  );
  assert.equal(
    dumpsIndented({ at: new Date(0), bad: NaN }),
    '{\n  "at": {},\n  "bad": NaN\n}',
  );
});
