/**
 * Text imports are resolved at build time, so the bundle and the compiled binary carry them: no
 * build chain, no framework, nothing read from disk at run time. The script is a set of ES
 * modules, the `*.js` files here, one concern each (docs/playground.md#the-page), served under
 * `/js/`; the browser loads them from `/js/main.js`.
 *
 * @module
 */
import html from "./index.html" with { type: "text" };
import css from "./app.css" with { type: "text" };
import viewsCss from "./views.css" with { type: "text" };
import studioCss from "./studio.css" with { type: "text" };
import favicon from "./favicon.svg" with { type: "text" };
import main from "./main.js" with { type: "text" };
import api from "./api.js" with { type: "text" };
import charts from "./charts.js" with { type: "text" };
import contextView from "./context_view.js" with { type: "text" };
import dom from "./dom.js" with { type: "text" };
import drafts from "./drafts.js" with { type: "text" };
import memory from "./memory.js" with { type: "text" };
import recordView from "./record_view.js" with { type: "text" };
import store from "./store.js" with { type: "text" };
import tabs from "./tabs.js" with { type: "text" };
import timeline from "./timeline.js" with { type: "text" };
import tools from "./tools.js" with { type: "text" };
import wakes from "./wakes.js" with { type: "text" };

/** One embedded file: its body and content type. */
export interface StaticFile {
  readonly body: string;
  readonly type: string;
}

const JS = "text/javascript; charset=utf-8";

/** The page's script modules by request path. */
const SCRIPTS: Readonly<Record<string, string>> = {
  "/js/main.js": main,
  "/js/api.js": api,
  "/js/charts.js": charts,
  "/js/context_view.js": contextView,
  "/js/dom.js": dom,
  "/js/drafts.js": drafts,
  "/js/memory.js": memory,
  "/js/record_view.js": recordView,
  "/js/store.js": store,
  "/js/tabs.js": tabs,
  "/js/timeline.js": timeline,
  "/js/tools.js": tools,
  "/js/wakes.js": wakes,
};

/** The embedded files by request path. */
export const STATIC_FILES: Readonly<Record<string, StaticFile>> = {
  "/": { body: html, type: "text/html; charset=utf-8" },
  "/app.css": { body: css, type: "text/css; charset=utf-8" },
  "/views.css": { body: viewsCss, type: "text/css; charset=utf-8" },
  "/studio.css": { body: studioCss, type: "text/css; charset=utf-8" },
  "/favicon.svg": { body: favicon, type: "image/svg+xml" },
  ...Object.fromEntries(Object.entries(SCRIPTS).map(([path, body]) => [path, { body, type: JS }])),
};
