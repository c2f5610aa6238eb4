/**
 * The documentation's link checker, as pure functions over file texts: which headings a Markdown
 * file has (as the anchors GitHub gives them), which relative links it makes, and which of those
 * links, and which `docs/<page>.md#anchor` citations in code comments, point nowhere. Nothing
 * here touches the disk, so tests/docs/links.test.ts can run it on planted inputs as well as on
 * the repository.
 */

/** One problem found: where, and what is wrong. */
export interface LinkProblem {
  /** The repository-relative file the link or citation is in. */
  readonly file: string;
  /** 1-based line of the link. */
  readonly line: number;
  /** The link target as written. */
  readonly target: string;
  /** `missing file`, `missing anchor` or `outside document`. */
  readonly reason: string;
}

/**
 * GitHub's anchor for a heading's text (the rules of github-slugger): lower-case, drop every
 * character that is not a letter, a mark, a digit, a connector (`_`), `-` or a space, then turn
 * each space into `-`. Inline markup is not part of the text: backticks, `*` emphasis, links
 * (their text stays) and HTML tags are removed first. So "`assets` — files on a timeline" is
 * `assets--files-on-a-timeline`: the em dash goes, both spaces around it stay.
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // [text](url), ![alt](src)
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`/g, "") // code spans keep their text
    .replace(/\*/g, ""); // **bold**, *em*
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, index) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) {
        fence = undefined;
      }
      return;
    }
    if (opener) {
      fence = opener[1];
      return;
    }
    out.push({ line, number: index + 1 });
  });
  return out;
}

/** Every anchor a Markdown file offers, duplicates numbered `-1`, `-2` as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    let candidate = base;
    let count = seen.get(base) ?? 0;
    // github-slugger: the nth repeat of a slug becomes `<slug>-n`, skipping any already taken.
    while (out.has(candidate)) candidate = `${base}-${++count}`;
    seen.set(base, count);
    out.add(candidate);
  }
  return out;
}

/** One link found in a Markdown file. */
export interface FoundLink {
  readonly target: string;
  readonly line: number;
}

/** The links of a Markdown file (inline and reference definitions), outside code. */
export function links(markdown: string): FoundLink[] {
  const out: FoundLink[] = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, ""); // a link inside a code span is not a link
    for (const match of prose.matchAll(/\]\(\s*(?:<([^>]*)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ target: match[1] ?? match[2], line: number });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition) out.push({ target: definition[1], line: number });
  }
  return out;
}

/** Whether a target leaves the repository (a scheme such as `https:` or `mailto:`). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** `a/b/../c` → `a/c`, relative to the repository root; undefined when it climbs out of it. */
export function resolvePath(fromFile: string, target: string): string | undefined {
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/**
 * The broken links among `files` (repository-relative path → text; only `.md` files are read
 * for links). `exists` says whether a path that is not among `files` is in the repository (a
 * source file, a folder); by default only `files` exist.
 */
export function brokenLinks(
  files: ReadonlyMap<string, string>,
  exists: (path: string) => boolean = () => false,
): LinkProblem[] {
  const problems: LinkProblem[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    let set = anchorCache.get(path);
    if (!set) anchorCache.set(path, set = anchors(files.get(path) ?? ""));
    return set;
  };
  for (const [file, text] of files) {
    if (!file.endsWith(".md")) continue;
    for (const { target, line } of links(text)) {
      if (isExternal(target)) continue;
      const hash = target.indexOf("#");
      const pathPart = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart === "" ? file : resolvePath(file, decodeURIComponent(pathPart));
      if (path === undefined) {
        problems.push({ file, line, target, reason: "outside the repository" });
        continue;
      }
      const known = files.has(path) || exists(path) || exists(path.replace(/\/$/, ""));
      if (!known) {
        problems.push({ file, line, target, reason: "missing file" });
        continue;
      }
      if (anchor !== undefined && anchor !== "") {
        if (!path.endsWith(".md") || !files.has(path)) {
          problems.push({ file, line, target, reason: "anchor into a file that is not checked" });
        } else if (!anchorsOf(path).has(anchor)) {
          problems.push({ file, line, target, reason: "missing anchor" });
        }
      }
    }
  }
  return problems;
}

/**
 * A citation of a docs page in code: `docs/<page>.md` with an optional `#anchor`. Not part of a
 * longer path or URL (`${base}/docs/api.md` is the platform's page, not ours).
 */
const CITATION = /(?<![\w/.$}-])docs\/([A-Za-z0-9_./-]+?\.md)(#[A-Za-z0-9_\p{L}-]+)?/gu;

/**
 * The broken `docs/<page>.md[#anchor]` citations in `sources` (repository-relative path → text):
 * each must name a file among `docs` (repository-relative path → Markdown) and, with an anchor,
 * one of its headings.
 */
export function brokenCitations(
  sources: ReadonlyMap<string, string>,
  docs: ReadonlyMap<string, string>,
): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const [file, text] of sources) {
    text.split("\n").forEach((lineText, index) => {
      for (const match of lineText.matchAll(CITATION)) {
        const page = `docs/${match[1]}`;
        const target = match[0];
        if (!docs.has(page)) {
          problems.push({ file, line: index + 1, target, reason: "missing file" });
        } else if (match[2] && !anchors(docs.get(page)!).has(match[2].slice(1))) {
          problems.push({ file, line: index + 1, target, reason: "missing anchor" });
        }
      }
    });
  }
  return problems;
}

/** Phrases that cite documents outside this repository; the docs must stand on their own. */
export const OUTSIDE_CITATIONS: readonly string[] = [
  "contracts §",
  "DESIGN §",
  "harness-contracts",
  "../shared",
];

/** Every use of an {@link OUTSIDE_CITATIONS} phrase in `files`. */
export function outsideCitations(files: ReadonlyMap<string, string>): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const [file, text] of files) {
    text.split("\n").forEach((line, index) => {
      for (const phrase of OUTSIDE_CITATIONS) {
        if (line.includes(phrase)) {
          problems.push({ file, line: index + 1, target: phrase, reason: "outside document" });
        }
      }
    });
  }
  return problems;
}

/** One problem per line, for an assertion message. */
export function describe(problems: readonly LinkProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}: ${p.reason}: ${p.target}`).join("\n");
}
