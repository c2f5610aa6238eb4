/**
 * POSIX path helpers with `node:path`'s exact results (`posix.join`, `dirname`, `basename`,
 * `normalize`, `isAbsolute`). They exist for start-up time alone: importing `node:path` costs a
 * short-lived `harness wake` process several milliseconds, these cost nothing.
 */

/** `path.posix.normalize`: resolves `.` and `..`, collapses slashes, keeps a trailing one. */
export function normalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = path.startsWith("/");
  const trailing = path.endsWith("/");
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(segment);
  }
  let result = out.join("/");
  if (absolute) return `/${result}${trailing && result ? "/" : ""}`;
  if (result === "") result = ".";
  return trailing ? `${result}/` : result;
}

/** `path.posix.join`: the non-empty parts joined by `/`, normalized (`.` when none). */
export function join(...parts: string[]): string {
  const kept = parts.filter((part) => part.length > 0);
  return kept.length === 0 ? "." : normalize(kept.join("/"));
}

/** `path.posix.isAbsolute`. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** `path.posix.dirname`. */
export function dirname(path: string): string {
  if (path.length === 0) return ".";
  const hasRoot = path[0] === "/";
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path[i] === "/") {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}

/** `path.posix.basename` (without the suffix argument). */
export function basename(path: string): string {
  let start = 0;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 0; --i) {
    if (path[i] === "/") {
      if (!matchedSlash) {
        start = i + 1;
        break;
      }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  return end === -1 ? "" : path.slice(start, end);
}

/**
 * `~` and `~/…` expanded against `home`, as a shell expands an unquoted path; any other path as
 * given. `undefined` when the path starts with `~` and there is no `home` to expand it with: the
 * caller says what that means for it (a refusal, or the path read as written).
 */
export function expandHome(path: string, home: string | undefined): string | undefined {
  if (path !== "~" && !path.startsWith("~/")) return path;
  if (!home) return undefined;
  return path === "~" ? home : join(home, path.slice(2));
}
