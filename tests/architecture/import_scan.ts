/**
 * The scanner behind the layer test (tests/architecture/layers.test.ts). It reads every
 * `lib/**\/*.ts` file as text — no subprocess, no type checker, so the test stays fast — and
 * collects each import whose relative specifier resolves inside lib/: static imports and
 * re-exports, `import type`, side-effect imports, and `import("…")` expressions in code and in
 * types (`typeof import("…")`). Comments are blanked first and string, template and regex
 * literals are masked, so prose that mentions an import is not one (a template's `${…}` is
 * masked with the rest of it: no lib module imports from inside one). The checks over the
 * collected edges (the table, folder cycles, file cycles) are pure functions
 * over plain data, so the test can prove each of them on planted inputs.
 */
import { REGEX_PREFIX, skipQuoted, skipRegex } from "./source_text.ts";
import { libFiles } from "./gate_scan.ts";

/** How an edge is written in the source; every kind counts, type-only ones included. */
export type ImportKind = "import" | "side effect" | "export from" | "import()";

/** One import of a lib/ module by a lib/ file. */
export interface ImportEdge {
  /** The importing file, a `lib/…` path. */
  readonly file: string;
  /** 1-based line of the `import`/`export` keyword. */
  readonly line: number;
  /** The specifier as written. */
  readonly specifier: string;
  /** The imported file, a `lib/…` path. */
  readonly target: string;
  readonly kind: ImportKind;
  /** Whether only types cross (`import type`, `export type`, `typeof import(…)`). */
  readonly typeOnly: boolean;
}

/** One `lazyImport<…>("lib/…")` call: a late-bound load by package path, not an edge. */
export interface LazyLoad {
  readonly file: string;
  readonly line: number;
  /** The package path named, e.g. `lib/wake/engaged/mod.ts`. */
  readonly target: string;
}

/** A folder-to-folder table: for each lib folder, the lib folders it may import from. */
export type LayerTable = ReadonlyArray<readonly [folder: string, allowed: readonly string[]]>;

/**
 * The two views the scanner matches on, both the length of `source` with every newline kept (so
 * an offset in one is an offset in the other and line numbers hold): `code` has comments
 * blanked; `bare` also has the contents of string, template and regex literals blanked (quotes
 * kept), so a keyword is only ever found in code and a specifier is read back from `code`.
 */
export function maskSource(source: string): { code: string; bare: string } {
  let code = "";
  let bare = "";
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const next = source[i + 1];
    if (ch === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      const gap = blank(source.slice(i, stop));
      code += gap;
      bare += gap;
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      const gap = blank(source.slice(i, stop));
      code += gap;
      bare += gap;
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === "`") {
      const stop = skipQuoted(source, i, ch);
      const text = source.slice(i, stop);
      code += text;
      // Keep the quotes so a masked literal still reads as a string to the patterns.
      const closed = stop - i >= 2 && text.endsWith(ch);
      bare += closed ? ch + blank(text.slice(1, -1)) + ch : ch + blank(text.slice(1));
      i = stop;
    } else if (ch === "/" && REGEX_PREFIX.test(code.trimEnd())) {
      const stop = skipRegex(source, i);
      const text = source.slice(i, stop);
      code += text;
      bare += blank(text);
      i = stop;
    } else {
      code += ch;
      bare += ch;
      i++;
    }
  }
  return { code, bare };
}

/**
 * The import forms, matched on the masked view. A keyword preceded by `.`, a word character or
 * `$` is a property or part of a name (`x.import(…)`, `reimport`), and `import.meta` has no
 * specifier. The clause of a static form holds only names, braces, commas, `*` and whitespace
 * (newlines included), which is what lets a multi-line list through and keeps
 * `export const from = "…"` out. The `spec` group is the specifier's place; its text is read
 * back from the unmasked view.
 */
const FORMS: ReadonlyArray<{ readonly kind: ImportKind; readonly pattern: RegExp }> = [
  {
    kind: "import",
    pattern:
      /(?<![\w$.])import(?<type>\s+type\b)?(?<clause>[\w$\s{},*]*?[\s}*]from)?\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
  },
  {
    kind: "export from",
    pattern:
      /(?<![\w$.])export(?<type>\s+type\b)?[\w$\s{},*]*?[\s}*]from\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
  },
  {
    kind: "import()",
    pattern: /(?<![\w$.])import\s*\(\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
  },
];

/** Just before an `import(`: `typeof`, which makes it a type query, not a load. */
const TYPEOF_BEFORE = /\btypeof\s*$/;

/**
 * Just after an `import(…)`: a member named like a type (`import("./x.ts").Journal`), the other
 * way a type names a module. A load in code goes on with `.then` or is awaited.
 */
const TYPE_MEMBER_AFTER = /^\s*\)\s*\.\s*[A-Z]/;

/**
 * The file a relative `specifier` in `file` names, as a path from the repository root (`lib/…`
 * while it stays inside lib/); undefined for a package specifier or one that leaves the root.
 */
export function resolveSpecifier(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const parts = file.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "." || part === "") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/** The folder of a `lib/…` file: `lib/wake/engaged/turn.ts` → `lib/wake/engaged`. */
export function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Every import in `source` (the text of `file`, a `lib/…` path) whose relative specifier
 * resolves inside lib/, in source order. Package specifiers (`npm:`, `node:`, `jsr:`, bare
 * names) and relative paths that leave lib/ (`../../deno.json`) are not edges of the layering.
 */
export function scanImports(file: string, source: string): ImportEdge[] {
  const { code, bare } = maskSource(source);
  const found: Array<ImportEdge & { readonly at: number }> = [];
  for (const { kind, pattern } of FORMS) {
    for (const m of bare.matchAll(pattern)) {
      const at = m.index;
      const [from, to] = m.indices!.groups!.spec;
      const specifier = code.slice(from, to);
      const target = resolveSpecifier(file, specifier);
      if (target === undefined || !target.startsWith("lib/")) continue;
      const end = to + 1;
      const typeOnly = kind === "import()"
        ? TYPEOF_BEFORE.test(bare.slice(Math.max(0, at - 16), at)) ||
          TYPE_MEMBER_AFTER.test(bare.slice(end, end + 8))
        : m.groups!.type !== undefined;
      const spelled = kind === "import" && m.groups!.clause === undefined ? "side effect" : kind;
      found.push({
        file,
        line: lineAt(source, at),
        specifier,
        target,
        kind: spelled,
        typeOnly,
        at,
      });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...edge }) => edge);
}

/** Every `lazyImport<…>("lib/…")` call in `source`, by the package path it names. */
export function scanLazyLoads(file: string, source: string): LazyLoad[] {
  const { code, bare } = maskSource(source);
  const out: LazyLoad[] = [];
  // The type argument may span lines and hold `typeof import("…")`; the load's own argument is
  // the first string after the call's `>(`.
  for (
    const m of bare.matchAll(
      /(?<![\w$.])lazyImport\s*<[^;]*?>\s*\(\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
    )
  ) {
    const [from, to] = m.indices!.groups!.spec;
    out.push({ file, line: lineAt(source, m.index), target: code.slice(from, to) });
  }
  return out;
}

/** Every lib folder holding at least one `.ts` file (`lib` itself for lib/mod.ts), sorted. */
export function libFolders(files: readonly string[]): string[] {
  return [...new Set(files.map(folderOf))].sort();
}

/** The source of every lib file under `root`, by `lib/…` path. */
export async function readLib(root: string): Promise<Map<string, string>> {
  const sources = new Map<string, string>();
  for (const file of await libFiles(root)) {
    sources.set(file, await Deno.readTextFile(`${root}/${file}`));
  }
  return sources;
}

/** Every edge of every file in `sources`. */
export function scanAll(sources: ReadonlyMap<string, string>): ImportEdge[] {
  return [...sources].flatMap(([file, source]) => scanImports(file, source));
}

/** The folder-to-folder edges the code has today, same-folder imports left out. */
export function folderEdges(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of edges) {
    const from = folderOf(e.file);
    const to = folderOf(e.target);
    if (from === to) continue;
    if (!out.has(from)) out.set(from, new Set());
    out.get(from)!.add(to);
  }
  return out;
}

/** How each kind reads in a message, plain and type-only. */
const SPELLING: Record<ImportKind, readonly [string, string]> = {
  "import": ["import … from", "import type … from"],
  "side effect": ["import", "import"],
  "export from": ["export … from", "export type … from"],
  "import()": ["import(…)", "typeof import(…)"],
};

/** Renders an edge for a failure message: `lib/x/a.ts:3: import … from "../y/b.ts"`. */
export function describe(edge: ImportEdge): string {
  return `${edge.file}:${edge.line}: ${
    SPELLING[edge.kind][edge.typeOnly ? 1 : 0]
  } "${edge.specifier}"`;
}

/**
 * Every edge the table does not allow, one message each: where, the import, and what the
 * importing folder may use. A folder missing from the table may import nothing (and fails on
 * its own check).
 */
export function checkTable(table: LayerTable, edges: readonly ImportEdge[]): string[] {
  const allowed = new Map(table.map(([folder, to]) => [folder, new Set(to)]));
  const out: string[] = [];
  for (const e of edges) {
    const from = folderOf(e.file);
    const to = folderOf(e.target);
    if (from === to || allowed.get(from)?.has(to)) continue;
    const list = [...(allowed.get(from) ?? [])].join(", ") || "nothing";
    out.push(`${describe(e)}: ${from} may not import ${to}; allowed: ${list}`);
  }
  return out;
}

/** Table entries no edge uses any more: the table must stay exact. */
export function unusedEntries(table: LayerTable, edges: readonly ImportEdge[]): string[] {
  const used = folderEdges(edges);
  const out: string[] = [];
  for (const [folder, allowed] of table) {
    for (const to of allowed) {
      if (!used.get(folder)?.has(to)) out.push(`${folder} → ${to}`);
    }
  }
  return out;
}

/** Table entries that point up or sideways: each must name a folder earlier in the table. */
export function upwardEntries(table: LayerTable): string[] {
  const rank = new Map(table.map(([folder], i) => [folder, i]));
  const out: string[] = [];
  for (const [folder, allowed] of table) {
    for (const to of allowed) {
      const r = rank.get(to);
      if (r === undefined) out.push(`${folder} → ${to}: ${to} is not in the table`);
      else if (r >= rank.get(folder)!) out.push(`${folder} → ${to}: ${to} is not below ${folder}`);
    }
  }
  return out;
}

/**
 * The cycles of a directed graph: one per strongly connected component of more than one node
 * (or a node with an edge to itself), each as a path `a → b → … → a` through that component.
 * Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
 */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const succ = (n: string) => [...(graph.get(n) ?? [])].sort();
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])])]
    .sort();
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: string[] }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: succ(node) });
    };
    enter(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const child = top.next.shift();
      if (child !== undefined) {
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        const selfLoop = graph.get(top.node)?.has(top.node) ?? false;
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((c) => cyclePath(graph, new Set(c)));
}

/** A shortest path from the component's first node back to itself, staying inside it. */
function cyclePath(graph: ReadonlyMap<string, ReadonlySet<string>>, members: Set<string>) {
  const first = [...members][0];
  const previous = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const n = queue.shift()!;
    for (const next of [...(graph.get(n) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === first) {
        const path = [first];
        for (let at: string | undefined = n; at !== first && at !== undefined;) {
          path.splice(1, 0, at);
          at = previous.get(at);
        }
        if (n !== first) return [...path, first];
        return [first, first];
      }
      if (!previous.has(next)) {
        previous.set(next, n);
        queue.push(next);
      }
    }
  }
  return [...members];
}

/** The file-level graph: every edge, type imports included. */
export function fileGraph(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!out.has(e.file)) out.set(e.file, new Set());
    out.get(e.file)!.add(e.target);
  }
  return out;
}
