/**
 * Where a lib/ folder says what it is for: the first paragraph of its README.md, written as
 * `` `lib/<folder>/`: <purpose>. `` and nowhere else. A module's own JSDoc speaks for that module
 * (and, on a published entry point, to library users), so the test also finds a module that
 * still opens with a folder's statement. Pure functions over file texts, so the layer test can
 * prove them on planted inputs.
 */

/** The README.md that states `folder`'s purpose (`folder` is `lib` or `lib/…`). */
export function readmeOf(folder: string): string {
  return `${folder}/README.md`;
}

/**
 * The first paragraph of a README: its lines up to the first blank one, joined with single
 * spaces, a leading `#` heading skipped. Undefined when the README holds no paragraph.
 */
export function readmePurpose(markdown: string): string | undefined {
  const lines = markdown.split("\n").map((l) => l.trim());
  let start = 0;
  while (start < lines.length && (lines[start] === "" || lines[start].startsWith("#"))) start++;
  if (start === lines.length) return undefined;
  const end = lines.indexOf("", start);
  return lines.slice(start, end < 0 ? undefined : end).join(" ");
}

/**
 * The first paragraph of a module's top JSDoc, its ` * ` lines joined with single spaces;
 * undefined when the module opens with no JSDoc.
 */
export function topDocParagraph(source: string): string | undefined {
  const m = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!m) return undefined;
  const lines = m[1].split("\n").map((l) => l.replace(/^\s*\*?\s?/, "").trim());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  const end = lines.indexOf("");
  return (end < 0 ? lines : lines.slice(0, end)).join(" ").trim();
}

/** Whether `text` is written as a folder's purpose statement (`` `lib/…/`: … ``). */
export function isPurposeStatement(text: string): boolean {
  return /^`lib(?:\/[\w/]+?)?\/`:\s/.test(text);
}
