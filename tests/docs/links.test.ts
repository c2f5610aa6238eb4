/**
 * The documentation's links hold: every relative link in README.md and docs/**\/*.md reaches an
 * existing file (and, with `#anchor`, one of that file's headings as GitHub names them); every
 * `docs/<page>.md[#anchor]` citation in the code's comments reaches a page and a heading; and no
 * page cites a document outside this repository. The checker's functions are proven on planted
 * inputs first, so a pass means something. Reads files only; no subprocess.
 */
import { strict as assert } from "node:assert";
import {
  anchors,
  brokenCitations,
  brokenLinks,
  describe,
  links,
  outsideCitations,
  slug,
} from "./markdown_links.ts";
import { REPO_ROOT } from "../support/run_cli.ts";

/** Repository-relative paths of every file under `dir` whose name passes `keep`. */
function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(`${REPO_ROOT}${dir}`)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return out;
    throw error;
  }
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory) walk(path, keep, out);
    else if (entry.isFile && keep(entry.name)) out.push(path);
  }
  return out;
}

function read(paths: string[]): Map<string, string> {
  return new Map(paths.sort().map((path) => [path, Deno.readTextFileSync(`${REPO_ROOT}${path}`)]));
}

/** README.md and every Markdown file under docs/. */
function documentation(): Map<string, string> {
  return read(["README.md", ...walk("docs", (name) => name.endsWith(".md"))]);
}

function existsInRepo(path: string): boolean {
  try {
    Deno.statSync(`${REPO_ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("slug: GitHub's anchors, backticks, punctuation and non-ASCII included", () => {
  assert.equal(slug("The delivery guarantee"), "the-delivery-guarantee");
  assert.equal(slug("`assets` — files on a timeline"), "assets--files-on-a-timeline");
  assert.equal(
    slug("Read-speed pacing (AI↔AI conversations)"),
    "read-speed-pacing-aiai-conversations",
  );
  assert.equal(
    slug("model_params.json and search_params.json"),
    "model_paramsjson-and-search_paramsjson",
  );
  assert.equal(
    slug("`harness records verify [--timeline UUID] [--json]`"),
    "harness-records-verify---timeline-uuid---json",
  );
  assert.equal(slug("§ 3. Ünïcode stays, § goes"), "-3-ünïcode-stays--goes");
  assert.equal(slug("web_fetch's address policy"), "web_fetchs-address-policy");
  assert.equal(slug("1. Speech is a tool call"), "1-speech-is-a-tool-call");
  assert.equal(slug("A [linked](x.md) **bold** heading"), "a-linked-bold-heading");
});

Deno.test("anchors: duplicates are numbered and code blocks are not headings", () => {
  const page = "# Title\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n\n### Notes\n";
  assert.deepEqual([...anchors(page)], ["title", "notes", "notes-1", "notes-2"]);
});

Deno.test("links: inline links and reference definitions, not code", () => {
  const page =
    "See [a](a.md#x) and [b](<b c.md>).\n\n`[not](a link)`\n\n```\n[no](nope.md)\n```\n" +
    "[ref]: ./docs/r.md\n";
  assert.deepEqual(links(page).map((l) => l.target), ["a.md#x", "b c.md", "./docs/r.md"]);
});

Deno.test("the checker reports planted broken links and accepts good ones", () => {
  const files = new Map([
    [
      "README.md",
      [
        "# Read me",
        "[ok](docs/a.md) [bad file](docs/missing.md) [ok anchor](docs/a.md#assets--files-on-a-timeline)",
        "[bad anchor](docs/a.md#no-such-heading) [in page](#read-me) [bad in page](#nowhere)",
        "[web](https://example.com) [source](lib/x.ts) [up](../outside.md)",
      ].join("\n"),
    ],
    ["docs/a.md", "# A\n\n## `assets` — files on a timeline\n\n[back](../README.md#read-me)\n"],
  ]);
  const problems = brokenLinks(files, (path) => path === "lib/x.ts");
  assert.deepEqual(
    problems.map((p) => `${p.file}:${p.line} ${p.reason} ${p.target}`),
    [
      "README.md:2 missing file docs/missing.md",
      "README.md:3 missing anchor docs/a.md#no-such-heading",
      "README.md:3 missing anchor #nowhere",
      "README.md:4 outside the repository ../outside.md",
    ],
  );
});

Deno.test("the checker reports planted broken citations in code", () => {
  const docs = new Map([["docs/a.md", "# A\n\n## The delivery guarantee\n"]]);
  const sources = new Map([
    [
      "lib/x.ts",
      [
        "// ok: docs/a.md#the-delivery-guarantee and docs/a.md",
        "// bad anchor: docs/a.md#the-delivery-guarantees",
        "// bad page: (docs/b.md)",
        "// not ours: ${base}/docs/api.md, https://example.com/docs/c.md",
      ].join("\n"),
    ],
  ]);
  assert.deepEqual(
    brokenCitations(sources, docs).map((p) => `${p.line} ${p.reason} ${p.target}`),
    ["2 missing anchor docs/a.md#the-delivery-guarantees", "3 missing file docs/b.md"],
  );
});

Deno.test("the checker reports planted citations of outside documents", () => {
  const files = new Map([["docs/x.md", "as contracts §6.13 says\nsee harness-contracts.md\nfine"]]);
  assert.deepEqual(outsideCitations(files).map((p) => `${p.line} ${p.target}`), [
    "1 contracts §",
    "2 harness-contracts",
  ]);
});

Deno.test("every relative link in README.md and docs/ resolves, anchors included", () => {
  const files = documentation();
  assert.ok(files.size > 10, "docs/ holds the manual");
  const problems = brokenLinks(files, existsInRepo);
  assert.deepEqual(problems, [], describe(problems));
});

Deno.test("every docs/<page>.md citation in code comments resolves", () => {
  const code = read([
    "main.ts",
    ...["lib", "tests", "bench", "examples", "deploy"].flatMap((dir) =>
      walk(dir, (name) => /\.(ts|js|sh)$/.test(name))
    ),
  ]);
  // This checker's own planted examples are not citations.
  code.delete("tests/docs/links.test.ts");
  const docs = new Map([...documentation()].filter(([path]) => path.startsWith("docs/")));
  const problems = brokenCitations(code, docs);
  assert.deepEqual(problems, [], describe(problems));
});

Deno.test("README.md and docs/ cite no document outside the repository", () => {
  const problems = outsideCitations(documentation());
  assert.deepEqual(problems, [], describe(problems));
});
