/**
 * Every byte the harness writes to its own stdout or stderr goes through lib/journal/output.ts,
 * which scrubs secrets: no other module of lib/ may touch `Deno.stdout`, `Deno.stderr` or the
 * console's writers. Comments are blanked before the scan (prose may name them), and the scanner
 * is proven on planted sources first, so a blind scan cannot pass.
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { libFiles, stripComments } from "./gate_scan.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** The one module that writes the process's output. */
const OUTPUT_MODULE = "lib/journal/output.ts";

/** Direct writers of the process's streams. */
const WRITERS: readonly RegExp[] = [
  /\bDeno\s*\.\s*std(?:out|err)\b/g,
  /\bconsole\s*\.\s*(?:log|error|warn|info|debug|trace|dir|table)\b/g,
  /\bconsole\s*\[/g,
];

/** `file:line: text` for each direct write in `source`. */
function directWrites(file: string, source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  for (const pattern of WRITERS) {
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split("\n").length;
      found.push(`${file}:${line}: ${source.split("\n")[line - 1].trim()}`);
    }
  }
  return found;
}

Deno.test("architecture: only lib/journal/output.ts writes the process's stdout and stderr", async () => {
  const files = await libFiles(ROOT);
  assert.ok(files.includes(OUTPUT_MODULE), "the scan must see the output module");
  assert.ok(files.includes("lib/cli/main.ts"), "the scan must see the CLI");
  const found: string[] = [];
  for (const file of files) {
    if (file === OUTPUT_MODULE) continue;
    found.push(...directWrites(file, await Deno.readTextFile(`${ROOT}/${file}`)));
  }
  assert.deepEqual(found, [], "write through writeStdout / writeStderr of lib/journal/output.ts");
  // The output module itself is seen by the scanner (it is exempt, not invisible).
  const own = directWrites(OUTPUT_MODULE, await Deno.readTextFile(`${ROOT}/${OUTPUT_MODULE}`));
  assert.ok(own.length >= 2, "the output module writes both streams");
});

Deno.test("output scanner: flags every way of writing the streams, and no comment", () => {
  const planted: Array<[string, number]> = [
    ['Deno.stderr.writeSync(new TextEncoder().encode("x"));', 1],
    ["await Deno.stdout.write(bytes);", 1],
    ["const w = Deno.stdout.writable.getWriter();", 1],
    ["const out = Deno.stderr;\nout.writeSync(b);", 1],
    ['console.log("hi");', 1],
    ["console.error(error);", 1],
    ["console . warn(x); console.info(y);", 2],
    ['console["log"](x);', 1],
    ["// console.log(x) in a comment", 0],
    ["/* Deno.stderr.writeSync(x) */ const a = 1;", 0],
    ["/** {@link console.log} */\nexport const b = 2;", 0],
    // A `//` inside a string starts no comment; strings are scanned too (a false alarm there is
    // cheap, a missed write is not).
    ['const url = "https://example.com//console.log";', 1],
    ["writeStderr(`harness: ${message}\\n`);", 0],
  ];
  for (const [source, count] of planted) {
    assert.equal(directWrites("lib/x.ts", source).length, count, source);
  }
});
