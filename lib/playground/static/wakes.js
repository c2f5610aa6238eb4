// The wakes: one panel per delivery, newest first. A panel shows the summary the state carries;
// its sections (the context view, the turn record, the journal, the tool calls, the narration)
// are fetched from the server when opened, and again when an update changes the wake. The state
// carries only the newest wakes (docs/playground.md#a-long-session): older ones are fetched a
// page at a time when the reader asks ("Show older wakes", or a link to an older wake's panel),
// and new wakes never grow the list past what the reader asked for.

import { get, say } from "./api.js";
import { renderCharts } from "./charts.js";
import { renderContext } from "./context_view.js";
import { costText, details, h, num, pct, plural, seconds, time } from "./dom.js";
import { renderRecords } from "./record_view.js";
import { store } from "./store.js";

/** Each wake's panel by id, so an update rebuilds only the panels of the wakes it carries. */
const panels = new Map();
/** Fetched details by wake id, keyed by what changes when the wake does. */
const fetched = new Map();
/** How many panels the list keeps: the state's window plus the older ones the reader loaded. */
let keep = 0;

function fetchOnce(wake, what) {
  const key = `${what}:${wake.id}`;
  const version = `${wake.finishedAt}/${wake.journalLines}`;
  const known = fetched.get(key);
  if (known?.version === version) return known.promise;
  const path = what === "context" ? `/api/wakes/${wake.id}/context` : `/api/wakes/${wake.id}`;
  const promise = get(path);
  fetched.set(key, { version, promise });
  promise.catch(() => fetched.delete(key));
  return promise;
}

function chartWakes() {
  renderCharts(store.state.wakes.filter((w) => w.finishedAt && !w.skipped));
}

/** Renders every wake the state carries, the charts and the control for older wakes. */
export function renderWakes() {
  const wakes = store.state.wakes;
  keep = store.state.wakeWindow;
  chartWakes();
  const box = document.getElementById("wakes");
  panels.clear();
  renderOlder();
  if (wakes.length === 0) {
    box.replaceChildren(
      h("p", { className: "empty" }, "No wake yet: post a message that mentions the agent."),
    );
    return;
  }
  box.replaceChildren(...wakes.map((wake) => panelOf(wake)).reverse());
}

function panelOf(wake) {
  const panel = renderWake(wake);
  panels.set(wake.id, panel);
  return panel;
}

/**
 * Applies an update's wakes: replaces or appends each, re-rendering only what it touched; then
 * drops the oldest panels past what the reader asked to see (they count as older again).
 */
export function applyWakes(wakes) {
  const state = store.state;
  const box = document.getElementById("wakes");
  if (state.wakes.length === 0 && wakes.length > 0) box.replaceChildren();
  let finished = false;
  for (const wake of wakes) {
    const at = state.wakes.findLastIndex((w) => w.id === wake.id);
    // A wake older than the list's oldest is counted among the older ones already.
    if (at < 0 && state.wakes.length > 0 && wake.n < state.wakes[0].n) continue;
    if (at < 0) state.wakes.push(wake);
    else state.wakes[at] = wake;
    finished ||= wake.finishedAt !== null;
    const old = panels.get(wake.id);
    const panel = panelOf(wake);
    if (old) old.replaceWith(panel);
    else box.prepend(panel);
  }
  const trimmed = trim();
  if (finished || trimmed) chartWakes();
  if (trimmed) renderOlder();
}

/** Drops the oldest panels past {@link keep}, but never the one the reader is in. */
function trim() {
  const state = store.state;
  let dropped = 0;
  while (state.wakes.length > keep) {
    const panel = panels.get(state.wakes[0].id);
    if (panel?.contains(document.activeElement)) break;
    panel?.remove();
    panels.delete(state.wakes.shift().id);
    state.olderWakes++;
    dropped++;
  }
  return dropped > 0;
}

/** The "Show older wakes" control under the list, while there are older wakes. */
function renderOlder() {
  const state = store.state;
  const box = document.getElementById("older-wakes");
  if (!state.olderWakes) {
    box.replaceChildren();
    return;
  }
  const next = Math.min(state.wakeWindow, state.olderWakes);
  box.replaceChildren(
    h("button", {
      type: "button",
      className: "secondary",
      "data-key": "older-wakes",
      onclick: showOlder,
    }, `Show ${plural(next, "older wake")} (${num(state.olderWakes)} not shown)`),
  );
}

/** Fetches the next page of older wakes into the list, for the button. */
async function showOlder() {
  say("older-status", "Loading older wakes…");
  try {
    const added = await loadOlder(store.state.wakeWindow);
    const left = store.state.olderWakes;
    say(
      "older-status",
      `Showing ${plural(added.length, "older wake")} more${
        left ? `; ${num(left)} older not shown` : "; every wake is shown"
      }.`,
    );
    // The button stays while there are more; once it is gone, focus the first panel it added.
    if (!left && added.length) panels.get(added.at(-1).id)?.focus();
  } catch (error) {
    say("older-status", `Could not load older wakes: ${error.message}`);
  }
}

/** Adds the `limit` wakes just older than the list's oldest; resolves to them. */
async function loadOlder(limit) {
  const state = store.state;
  const before = state.wakes[0]?.n ?? state.olderWakes + 1;
  const page = await get(`/api/wakes?before=${before}&limit=${limit}`);
  // A reconnect replaced the state meanwhile: its list starts afresh.
  if (store.state !== state || state.wakes[0]?.n !== before) return [];
  state.wakes.unshift(...page.wakes);
  state.olderWakes = page.older;
  keep += page.wakes.length;
  document.getElementById("wakes").append(...page.wakes.map((wake) => panelOf(wake)).reverse());
  chartWakes();
  renderOlder();
  return page.wakes;
}

/**
 * Opens the panel a `#wake/<id>` link names: loads the older wakes down to it when it is not in
 * the list, shows the Wakes tab, scrolls to the panel and focuses it.
 */
export async function showLinkedWake() {
  const match = location.hash.match(/^#wake\/([A-Za-z0-9-]{1,64})$/);
  if (!match || !store.state) return;
  const id = match[1];
  if (!panels.has(id)) {
    say("older-status", "Loading the linked wake…");
    try {
      const target = await get(`/api/wakes/${id}/summary`);
      while (!panels.has(id) && store.state.wakes.length && store.state.wakes[0].n > target.n) {
        const added = await loadOlder(store.state.wakeWindow);
        if (added.length === 0) break;
      }
    } catch (error) {
      say("older-status", `Could not open the linked wake: ${error.message}`);
      return;
    }
  }
  const panel = panels.get(id);
  if (!panel) {
    say("older-status", `No wake ${id} on this page.`);
    return;
  }
  say("older-status", `Showing wake ${panel.dataset.n}.`);
  const tab = document.getElementById("tab-wakes");
  if (tab.getAttribute("aria-selected") !== "true") tab.click();
  panel.scrollIntoView({ block: "start" });
  panel.focus();
}

/** The router twin's handling of the delivery, in one line. */
function deliveryText(wake) {
  const d = wake.delivery;
  if (!d) return wake.finishedAt ? "–" : "queued or running";
  if (d.attempts.length === 0) return `${d.outcome}: not run${d.detail ? ` (${d.detail})` : ""}`;
  const tries = d.attempts.map((a) =>
    `attempt ${a.attempt}: ${a.code === null ? "could not start" : `exit ${a.code}`}, ${
      seconds(a.ms)
    }`
  );
  const retried = d.attempts.length > 1
    ? ` after ${plural(d.attempts.length - 1, "retry", "retries")}`
    : "";
  return `${d.outcome}${retried} — ${tries.join("; ")}`;
}

function renderWake(wake) {
  const running = wake.finishedAt === null;
  const facts = running ? "running…" : [
    `outcome=${wake.outcome}`,
    wake.steps ? `steps=${wake.steps}` : null,
    `posted=${wake.posted}`,
    `code=${wake.code ?? "none"}`,
  ].filter(Boolean).join(" ");
  const trigger = `${wake.trigger.event}${wake.trigger.item ? ` ${wake.trigger.item}` : ""}${
    wake.trigger.actor ? ` by @${wake.trigger.actor}` : ""
  }`;
  const key = `wake/${wake.id}`;
  const dl = h(
    "dl",
    { className: "facts-grid" },
    h("dt", {}, "Trigger"),
    h("dd", {}, trigger),
    h("dt", {}, "Started"),
    h("dd", {}, h("time", { datetime: wake.startedAt }, time(wake.startedAt))),
    h("dt", {}, "Duration"),
    h("dd", {}, wake.skipped ? "not run" : seconds(wake.ms)),
    h("dt", {}, "Delivery"),
    h("dd", { className: "delivery" }, deliveryText(wake)),
    h("dt", {}, "Tokens"),
    h(
      "dd",
      { className: "tokens" },
      `in ${num(wake.tokensIn)} · out ${num(wake.tokensOut)} · cached ${num(wake.cachedTokens)} (${
        pct(wake.cachedTokens, wake.tokensIn)
      })${wake.cacheWriteTokens ? ` · cache writes ${num(wake.cacheWriteTokens)}` : ""} · ${
        plural(wake.llmCalls, "model call")
      }`,
    ),
    h("dt", {}, "Cost"),
    h("dd", { className: "cost" }, running || wake.skipped ? "–" : costText(wake.cost)),
    h("dt", {}, "Records"),
    h(
      "dd",
      {},
      wake.results.length
        ? `${plural(wake.results.length, "turn")}: ${wake.results.join(", ")}`
        : running
        ? "–"
        : "none (the wake engaged no turn)",
    ),
  );
  const detailsOf = () => fetchOnce(wake, "details");
  const sections = [
    details(
      `${key}/context`,
      "Context: what the model was sent",
      async () => renderContext(await fetchOnce(wake, "context"), wake),
      { className: "section context-section" },
    ),
    details(
      `${key}/record`,
      "Turn record",
      async () => renderRecords(await detailsOf(), running),
      { className: "section" },
    ),
    details(
      `${key}/journal`,
      `Journal (${plural(wake.journalLines, "line")})`,
      async () => journalOf((await detailsOf()).journal),
      { className: "section" },
    ),
    details(
      `${key}/tools`,
      `Tool calls (${wake.toolCalls})`,
      async () => toolCallsOf((await detailsOf()).toolCalls),
      { className: "section" },
    ),
    details(
      `${key}/unspoken`,
      "Unspoken narration",
      async () => {
        const lines = (await detailsOf()).unspoken;
        return lines.length ? lines.map((t) => h("blockquote", {}, t)) : h("p", {}, "None.");
      },
      { className: "section" },
    ),
  ];
  return h(
    "article",
    {
      className: `wake${running ? " running" : ""}`,
      id: key,
      tabindex: "-1",
      "data-wake": wake.id,
      "data-n": wake.n,
      "aria-labelledby": `${key}/h`,
    },
    h(
      "header",
      { className: "wake-head" },
      h("h3", { id: `${key}/h` }, `Wake ${wake.n} · @${wake.agent}`),
      h("a", {
        href: `#${key}`,
        className: "permalink",
        "aria-label": `Link to wake ${wake.n}`,
      }, "Link"),
      h("span", { className: `badge outcome-${wake.outcome}` }, wake.outcome),
      wake.chain
        ? h(
          "span",
          { className: `badge ${wake.chain.verified ? "good" : "bad"}` },
          wake.chain.verified ? "chain verified" : "chain damaged",
        )
        : null,
    ),
    h("p", { className: "facts" }, facts),
    wake.spawnError ? h("p", { className: "bad" }, `Could not start: ${wake.spawnError}`) : null,
    dl,
    sections,
  );
}

function journalOf(lines) {
  return h(
    "pre",
    { className: "journal", "aria-label": "Journal", tabindex: "0" },
    lines.map((line) =>
      h(
        "span",
        { className: `line level-${line.level || "none"}` },
        line.segments.map((seg, i) => {
          const cls = [
            seg.colour ? `ansi-${seg.colour}` : null,
            i === 0 && line.level ? "level" : null,
          ]
            .filter(Boolean).join(" ");
          return cls ? h("span", { className: cls }, seg.text) : seg.text;
        }),
      )
    ),
  );
}

function toolCallsOf(calls) {
  if (calls.length === 0) return h("p", {}, "None.");
  return calls.map((call, i) =>
    h(
      "div",
      { className: "tool-call" },
      h("h4", {}, `${i + 1}. ${call.name}`),
      h("p", { className: "label" }, "Arguments"),
      h("pre", {}, JSON.stringify(call.arguments, null, 2)),
      h("p", { className: "label" }, "Result"),
      h("pre", {}, call.result ?? "(no result recorded)"),
    )
  );
}
