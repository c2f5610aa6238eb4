/**
 * Text imports are resolved at build time, so the bundle and the compiled binary carry them: no
 * build chain, no framework, nothing read from disk at run time.
 *
 * @module
 */
import html from "./index.html" with { type: "text" };
import css from "./app.css" with { type: "text" };
import js from "./app.js" with { type: "text" };

/** One embedded file: its body and content type. */
export interface StaticFile {
  readonly body: string;
  readonly type: string;
}

/** The embedded files by request path. */
export const STATIC_FILES: Readonly<Record<string, StaticFile>> = {
  "/": { body: html, type: "text/html; charset=utf-8" },
  "/app.css": { body: css, type: "text/css; charset=utf-8" },
  "/app.js": { body: js, type: "text/javascript; charset=utf-8" },
};
