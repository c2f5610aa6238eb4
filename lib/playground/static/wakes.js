// The wakes: one panel per delivery, newest first. A panel shows the summary the state carries;
// its sections (the context view, the turn record, the journal, the tool calls, the narration)
// are fetched from the server when opened, and again when an update changes the wake.

import { get } from "./api.js";
import { renderCharts } from "./charts.js";
import { renderContext } from "./context_view.js";
import { costText, details, h, num, pct, plural, seconds, time } from "./dom.js";
import { renderRecords } from "./record_view.js";
import { store } from "./store.js";

/** Each wake's panel by id, so an update rebuilds only the panels of the wakes it carries. */
const panels = new Map();
/** Fetched details by wake id, keyed by what changes when the wake does. */
const fetched = new Map();

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

/** Renders every wake and the charts from the state. */
export function renderWakes() {
  const wakes = store.state.wakes;
  renderCharts(wakes.filter((w) => w.finishedAt && !w.skipped));
  const box = document.getElementById("wakes");
  panels.clear();
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

/** Applies an update's wakes: replaces or appends each, re-rendering only what it touched. */
export function applyWakes(wakes) {
  const state = store.state;
  const box = document.getElementById("wakes");
  if (state.wakes.length === 0 && wakes.length > 0) box.replaceChildren();
  let finished = false;
  for (const wake of wakes) {
    const at = state.wakes.findLastIndex((w) => w.id === wake.id);
    if (at < 0) state.wakes.push(wake);
    else state.wakes[at] = wake;
    finished ||= wake.finishedAt !== null;
    const old = panels.get(wake.id);
    const panel = panelOf(wake);
    if (old) old.replaceWith(panel);
    else box.prepend(panel);
  }
  if (finished) renderCharts(state.wakes.filter((w) => w.finishedAt && !w.skipped));
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
      "data-wake": wake.id,
      "aria-labelledby": `${key}/h`,
    },
    h(
      "header",
      { className: "wake-head" },
      h("h3", { id: `${key}/h` }, `Wake ${wake.n} · @${wake.agent}`),
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
