/**
 * Reduces an HTML page to the readable text a model needs: the title, headings marked with
 * `#`, paragraphs and list items on their own lines, table cells separated by ` | `, and no
 * markup, scripts or styles. A single forward scan with no DOM: it never throws on malformed
 * markup (an unclosed tag or comment just ends the text), and it is linear in the input.
 */
import { decodeEntities } from "./html_entities.ts";

/** The reduced page. */
export interface HtmlText {
  /** The document's `<title>`, decoded and collapsed; empty when there is none. */
  readonly title: string;
  /** The body text. */
  readonly text: string;
}

// Elements whose content is never prose: raw text we skip to the matching end tag.
const RAW_SKIP = new Set(["script", "style", "noscript", "xmp", "noembed", "noframes", "iframe"]);
// Elements whose subtree is skipped (they nest, so depth is counted).
const TREE_SKIP = new Set(["template", "svg", "math", "select"]);
// Elements that start and end a paragraph-sized block.
const PARAGRAPH = new Set([
  "p",
  "blockquote",
  "pre",
  "table",
  "ul",
  "ol",
  "dl",
  "figure",
  "form",
  "fieldset",
  "address",
  "details",
  "hr",
]);
// Elements that only need a line of their own.
const LINE = new Set([
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "tr",
  "dt",
  "dd",
  "figcaption",
  "caption",
  "summary",
  "legend",
  "option",
  "label",
  "center",
]);
const CELL_MARK = "\u0001";

/** Collects output, turning block structure into line breaks and collapsing whitespace. */
class TextSink {
  #parts: string[] = [];
  #pendingBreak = 0;
  #pendingSpace = false;
  #lineStart = true;

  /** Requests at least `lines` line breaks before the next text. */
  block(lines: 1 | 2): void {
    this.#pendingBreak = Math.max(this.#pendingBreak, lines);
    this.#pendingSpace = false;
  }

  /** Prose: every whitespace run becomes one space. */
  text(raw: string): void {
    const collapsed = raw.replace(/[\s\u00a0]+/g, " ");
    const trimmed = collapsed.trim();
    if (collapsed.startsWith(" ")) this.#pendingSpace = true;
    if (trimmed !== "") {
      this.#write(trimmed);
      this.#pendingSpace = collapsed.endsWith(" ");
    }
  }

  /** Markers (`# `, `- `) and preformatted text, written exactly. */
  verbatim(value: string): void {
    if (value === "") return;
    this.#write(value);
    this.#pendingSpace = false;
    this.#lineStart = value.endsWith("\n");
  }

  #write(value: string): void {
    if (this.#parts.length > 0 && this.#pendingBreak > 0) {
      this.#parts.push("\n".repeat(this.#pendingBreak));
      this.#lineStart = true;
    } else if (this.#pendingSpace && !this.#lineStart) {
      this.#parts.push(" ");
    }
    this.#pendingBreak = 0;
    this.#pendingSpace = false;
    this.#parts.push(value);
    this.#lineStart = false;
  }

  /** The collected text: trailing spaces trimmed, cell marks joined, at most one blank line. */
  finish(): string {
    return this.#parts.join("")
      .split("\n")
      .map((line) =>
        line.replace(/[ \t]+$/, "")
          .replace(new RegExp(`^(\\s*)${CELL_MARK}+`), "$1")
          .replace(new RegExp(`\\s*${CELL_MARK}+\\s*`, "g"), " | ")
      )
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }
}

/** Reads a tag starting at `<` (index `at`); returns its name, whether it closes, and its end. */
function readTag(
  html: string,
  at: number,
): { name: string; closing: boolean; selfClosing: boolean; end: number } | null {
  const closing = html[at + 1] === "/";
  const nameStart = at + (closing ? 2 : 1);
  const nameMatch = /^[A-Za-z][A-Za-z0-9:-]*/.exec(html.slice(nameStart, nameStart + 64));
  if (!nameMatch) return null;
  let i = nameStart + nameMatch[0].length;
  // Walk attributes so a `>` inside a quoted value does not end the tag early.
  while (i < html.length && html[i] !== ">") {
    const c = html[i];
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, i + 1);
      if (close < 0) break; // an unterminated quote: fall back to the next `>`
      i = close + 1;
    } else {
      i++;
    }
  }
  let end = i < html.length && html[i] === ">" ? i : html.indexOf(">", i);
  if (end < 0) end = html.length;
  return {
    name: nameMatch[0].toLowerCase(),
    closing,
    selfClosing: html[end - 1] === "/",
    end: end + 1,
  };
}

/** The raw content up to the end tag `</name …>` at or after `from`, and the index past it. */
function skipPast(html: string, name: string, from: number): { inner: string; next: number } {
  const pattern = new RegExp(`</${name}`, "ig");
  pattern.lastIndex = from;
  const close = pattern.exec(html)?.index ?? -1;
  if (close < 0) return { inner: html.slice(from), next: html.length };
  const gt = html.indexOf(">", close);
  return { inner: html.slice(from, close), next: gt < 0 ? html.length : gt + 1 };
}

/** Reduces HTML to {@link HtmlText}. */
export function htmlToText(html: string): HtmlText {
  const sink = new TextSink();
  const lists: { ordered: boolean; count: number }[] = [];
  let title = "";
  let skipDepth = 0;
  let skipName = "";
  let preDepth = 0;
  let i = 0;

  while (i < html.length) {
    const lt = html.indexOf("<", i);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > i && skipDepth === 0) {
      const chunk = decodeEntities(html.slice(i, textEnd));
      if (preDepth > 0) sink.verbatim(chunk);
      else sink.text(chunk);
    }
    if (lt < 0) break;
    i = lt;

    if (html.startsWith("<!--", i)) {
      const close = html.indexOf("-->", i + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    if (html[i + 1] === "!" || html[i + 1] === "?") {
      const close = html.indexOf(">", i);
      i = close < 0 ? html.length : close + 1; // doctype, CDATA, processing instruction
      continue;
    }
    const tag = readTag(html, i);
    if (!tag) {
      if (skipDepth === 0) sink.text("<"); // a bare `<` in text, as browsers show it
      i++;
      continue;
    }
    i = tag.end;
    const { name, closing } = tag;

    if (skipDepth > 0) {
      // Inside a skipped subtree only its own name matters (nested <svg> in <svg>, …).
      if (name === skipName && !tag.selfClosing) skipDepth += closing ? -1 : 1;
      continue;
    }
    if (!closing && name === "title") {
      const { inner, next } = skipPast(html, "title", i);
      if (title === "") title = decodeEntities(inner).replace(/\s+/g, " ").trim();
      i = next;
      continue;
    }
    if (!closing && RAW_SKIP.has(name)) {
      i = skipPast(html, name, i).next;
      continue;
    }
    if (!closing && TREE_SKIP.has(name) && !tag.selfClosing) {
      skipDepth = 1;
      skipName = name;
      continue;
    }
    structure(sink, lists, name, closing);
    if (name === "pre") preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
  }
  return { title, text: sink.finish() };
}

/** Turns one structural tag into breaks and markers. */
function structure(
  sink: TextSink,
  lists: { ordered: boolean; count: number }[],
  name: string,
  closing: boolean,
): void {
  const heading = /^h([1-6])$/.exec(name);
  if (heading) {
    sink.block(2);
    if (!closing) sink.verbatim(`${"#".repeat(Number(heading[1]))} `);
    return;
  }
  if (name === "ul" || name === "ol") {
    if (closing) lists.pop();
    else lists.push({ ordered: name === "ol", count: 0 });
    sink.block(lists.length > 0 ? 1 : 2);
    return;
  }
  if (name === "li") {
    sink.block(1);
    if (closing) return;
    const list = lists.at(-1);
    const indent = "  ".repeat(Math.max(0, lists.length - 1));
    if (list?.ordered) sink.verbatim(`${indent}${++list.count}. `);
    else sink.verbatim(`${indent}- `);
    return;
  }
  if (name === "br") {
    sink.block(1);
    return;
  }
  if (name === "td" || name === "th") {
    if (!closing) sink.verbatim(CELL_MARK);
    return;
  }
  if (PARAGRAPH.has(name)) sink.block(2);
  else if (LINE.has(name)) sink.block(1);
}
