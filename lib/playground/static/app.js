// The playground page: renders the server's snapshot (sent whole when the event stream opens,
// then as updates carrying only the wakes and timelines that changed) and posts the composer's
// forms back. Untrusted text is only ever set as textContent, never parsed as HTML.

const SVG = "http://www.w3.org/2000/svg";
let state = null;
let selected = null;
const openDetails = new Set();
/** Each wake's panel by wake id, so an update rebuilds only the panels of the wakes it carries. */
const panels = new Map();

/** Builds an element; attributes starting with "on" become listeners. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "className") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child instanceof Node ? child : String(child));
  return el;
}

/**
 * A <details> whose open state survives re-rendering. Its body is built when it is first shown
 * (`build` returns the children), so a long session's closed panels cost the page nothing.
 */
function details(key, summary, build) {
  const el = h(
    "details",
    { "data-key": key, open: openDetails.has(key) },
    h("summary", { "data-key": `${key}/summary` }, summary),
  );
  let built = false;
  const fill = () => {
    if (built) return;
    built = true;
    el.append(...[build()].flat());
  };
  if (el.open) fill();
  el.addEventListener("toggle", () => {
    if (el.open) {
      openDetails.add(key);
      fill();
    } else openDetails.delete(key);
  });
  return el;
}

function time(iso) {
  const d = new Date(iso);
  return Number.isNaN(+d) ? iso : d.toLocaleTimeString();
}

function seconds(ms) {
  return ms === null || ms === undefined ? "running…" : `${(ms / 1000).toFixed(2)} s`;
}

function dollars(cost) {
  return cost === null || cost === undefined ? "not reported" : `$${cost.toFixed(6)}`;
}

function status(text) {
  document.getElementById("form-status").textContent = text;
}

function currentTimeline() {
  if (!state || state.timelines.length === 0) return null;
  return state.timelines.find((t) => t.uuid === selected) ?? state.timelines[0];
}

// ---- rendering ----------------------------------------------------------------------------

function render() {
  const focusKey = document.activeElement?.getAttribute?.("data-key");
  document.getElementById("who").textContent =
    `You are @${state.human.handle} (${state.human.name}); the agent is @${state.agent.handle}. ` +
    `Model: ${state.model}`;
  renderTimelines();
  renderWakes();
  if (focusKey) document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
}

function renderTimelines() {
  const timeline = currentTimeline();
  const list = document.getElementById("timeline-list");
  list.replaceChildren(
    ...state.timelines.map((t) =>
      h(
        "li",
        {},
        h("button", {
          type: "button",
          className: "secondary",
          "data-key": `tab/${t.uuid}`,
          "aria-current": t.uuid === timeline?.uuid ? "true" : "false",
          onclick: () => {
            selected = t.uuid;
            render();
          },
        }, `${t.name}${t.locked ? " (locked)" : ""}`),
      )
    ),
  );
  const items = document.getElementById("items");
  if (!timeline) {
    items.replaceChildren(h("li", {}, "No timeline yet."));
    return;
  }
  reconcile(items, timeline.items.map(cachedItem));
  const mentions = document.getElementById("mentions");
  mentions.replaceChildren(
    ...timeline.viewers.filter((v) => v !== state.human.handle).map((handle) =>
      h("button", {
        type: "button",
        className: "secondary",
        "data-key": `mention/${handle}`,
        onclick: () => {
          const body = document.getElementById("body");
          body.value = `${body.value}${
            body.value && !body.value.endsWith(" ") ? " " : ""
          }@${handle} `;
          body.focus();
        },
      }, `Mention @${handle}`)
    ),
  );
}

/** Each item's element by uuid, with the text it was built from, reused while that is unchanged. */
const itemNodes = new Map();

function cachedItem(item) {
  const key = JSON.stringify(item) + state.agent.handle;
  const known = itemNodes.get(item.uuid);
  if (known?.key === key) return known.el;
  const el = renderItem(item);
  itemNodes.set(item.uuid, { key, el });
  return el;
}

/**
 * Makes `parent`'s children exactly `nodes`, touching only positions that differ, so a timeline
 * that gained one item moves nothing else (a long list is not rebuilt and laid out again).
 */
function reconcile(parent, nodes) {
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

function renderItem(item) {
  const fromAgent = item.author === state.agent.handle;
  const meta = h(
    "p",
    { className: "meta" },
    `${item.author ? `@${item.author}` : "webhook"} · ${item.type} · `,
    h("time", { datetime: item.at }, time(item.at)),
  );
  const parts = [meta];
  if (item.body !== undefined) parts.push(h("p", { className: "body" }, item.body));
  if (item.file) {
    const label = `${item.file.filename} (${item.file.contentType}, ${item.file.bytes} bytes)`;
    if (item.file.image) {
      parts.push(h("img", { src: item.file.href, alt: item.description || item.file.filename }));
    }
    parts.push(h("p", {}, h("a", { href: item.file.href, target: "_blank" }, label)));
  }
  if (item.description) parts.push(h("p", { className: "body" }, item.description));
  if (item.task) {
    parts.push(h("p", { className: "body" }, item.task.instructions));
    parts.push(
      h(
        "p",
        { className: "meta" },
        `status ${item.task.status} · due ${time(item.task.activateAt)}`,
      ),
    );
    if (item.task.status === "pending") {
      parts.push(h("button", {
        type: "button",
        "data-key": `activate/${item.uuid}`,
        onclick: () => send(`/api/tasks/${item.uuid}/activate`, null, "Task activated."),
      }, "Activate now"));
    }
  }
  return h(
    "li",
    { className: `item${fromAgent ? " from-agent" : ""}`, "data-item": item.uuid },
    parts,
  );
}

function renderWakes() {
  const wakes = state.wakes;
  renderCharts(wakes.filter((w) => w.finishedAt && !w.skipped));
  const box = document.getElementById("wakes");
  panels.clear();
  if (wakes.length === 0) {
    box.replaceChildren(h("p", {}, "No wake yet: post a message that mentions the agent."));
    return;
  }
  box.replaceChildren(
    ...wakes.map((wake, i) => {
      const panel = renderWake(wake, i + 1);
      panels.set(wake.id, panel);
      return panel;
    }).reverse(),
  );
}

/** Applies one update: replaces or appends its wakes, and re-renders only what it touched. */
function applyUpdate(update) {
  const focused = document.activeElement;
  const focusKey = focused?.getAttribute?.("data-key");
  if (update.timelines) {
    state.timelines = update.timelines;
    renderTimelines();
  }
  const box = document.getElementById("wakes");
  if (state.wakes.length === 0 && update.wakes.length > 0) box.replaceChildren();
  let finished = false;
  for (const wake of update.wakes) {
    let n = state.wakes.findLastIndex((w) => w.id === wake.id) + 1;
    if (n === 0) n = state.wakes.push(wake);
    else state.wakes[n - 1] = wake;
    finished ||= wake.finishedAt !== null;
    const panel = renderWake(wake, n);
    const old = panels.get(wake.id);
    if (old) old.replaceWith(panel);
    else box.prepend(panel);
    panels.set(wake.id, panel);
  }
  if (finished) renderCharts(state.wakes.filter((w) => w.finishedAt && !w.skipped));
  if (focusKey && !focused.isConnected) {
    document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }
}

function renderWake(wake, n) {
  const sum = wake.summary;
  const running = wake.finishedAt === null;
  // A delivery the router did not run (coalesced, dedup, rate-refused, wake-locked) says so.
  const outcome = wake.skipped ??
    (running ? "running" : sum.outcome ?? (wake.code === 0 ? "idle" : "failed"));
  const facts = running ? "running…" : [
    `outcome=${outcome}`,
    sum.steps ? `steps=${sum.steps}` : null,
    `posted=${sum.posted ?? 0}`,
    `code=${wake.code ?? "none"}`,
  ].filter(Boolean).join(" ");
  const trigger = `${wake.trigger.event}${wake.trigger.item ? ` ${wake.trigger.item}` : ""}${
    wake.trigger.actor ? ` by @${wake.trigger.actor}` : ""
  }`;
  const ratio = sum.tokensIn > 0 ? `${((sum.cachedTokens / sum.tokensIn) * 100).toFixed(1)}%` : "–";
  const dl = h(
    "dl",
    {},
    h("dt", {}, "Trigger"),
    h("dd", {}, trigger),
    h("dt", {}, "Started"),
    h("dd", {}, h("time", { datetime: wake.startedAt }, time(wake.startedAt))),
    h("dt", {}, "Duration"),
    h("dd", {}, seconds(wake.ms)),
    h("dt", {}, "Outcome"),
    h("dd", { className: `outcome-${outcome}` }, outcome),
    h("dt", {}, "Steps"),
    h("dd", {}, sum.steps ?? "–"),
    h("dt", {}, "Posted"),
    h("dd", {}, String(sum.posted ?? 0)),
    h("dt", {}, "Tokens"),
    h(
      "dd",
      { className: "tokens" },
      `in ${sum.tokensIn} · out ${sum.tokensOut} · cached ${sum.cachedTokens} (${ratio})${
        sum.cacheWriteTokens ? ` · cache writes ${sum.cacheWriteTokens}` : ""
      } · ${sum.llmCalls} model call${sum.llmCalls === 1 ? "" : "s"}`,
    ),
    h("dt", {}, "Cost"),
    h("dd", {}, dollars(sum.cost)),
  );
  const journal = () =>
    h(
      "pre",
      { className: "journal", "aria-label": "Journal" },
      wake.journal.map((line) =>
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
  const tools = () =>
    wake.toolCalls.length === 0 ? h("p", {}, "None.") : wake.toolCalls.map((call, i) =>
      h(
        "div",
        { className: "tool-call" },
        h("h4", {}, `${i + 1}. ${call.name}`),
        h("p", {}, "Arguments"),
        h("pre", {}, JSON.stringify(call.arguments, null, 2)),
        h("p", {}, "Result"),
        h("pre", {}, call.result ?? "(no result recorded)"),
      )
    );
  const unspoken = () =>
    sum.unspoken.length ? sum.unspoken.map((t) => h("blockquote", {}, t)) : [h("p", {}, "None.")];
  const record = wake.record;
  const recordBody = () =>
    record
      ? [
        h(
          "p",
          { className: record.verified ? "verified" : "unverified" },
          record.verified
            ? `Chain verified: ${record.records} record${
              record.records === 1 ? "" : "s"
            }, every hash and link intact.`
            : `Chain damaged: ${record.problem}`,
        ),
        record.record
          ? h("pre", {}, JSON.stringify(record.record, null, 2))
          : h("p", {}, "This wake wrote no record."),
      ]
      : [h("p", {}, running ? "Not yet written." : "No turn record (the wake engaged no turn).")];
  const key = `wake/${wake.id}`;
  return h(
    "article",
    { className: "wake", "data-wake": wake.id, "aria-labelledby": `${key}/h` },
    h("h3", { id: `${key}/h` }, `Wake ${n} · @${wake.agent}`),
    h("p", { className: "facts" }, facts),
    wake.spawnError
      ? h("p", { className: "unverified" }, `Could not start: ${wake.spawnError}`)
      : null,
    dl,
    details(`${key}/journal`, `Journal (${wake.journal.length} lines)`, journal),
    details(`${key}/tools`, `Tool calls (${wake.toolCalls.length})`, tools),
    details(`${key}/unspoken`, "Unspoken narration", unspoken),
    details(`${key}/record`, "Turn record", recordBody),
  );
}

// ---- charts -------------------------------------------------------------------------------

function barChart(title, series, format) {
  const width = 240, height = 110, top = 12, bottom = 18;
  const n = series[0].values.length;
  const max = Math.max(1e-9, ...series.flatMap((sr) => sr.values));
  const slot = n ? (width - 10) / n : 0;
  const barWidth = Math.max(2, slot / series.length - 2);
  const bars = [];
  series.forEach((sr, si) => {
    sr.values.forEach((v, i) => {
      const h0 = ((height - top - bottom) * v) / max;
      const x = 5 + i * slot + si * (barWidth + 1);
      const y = height - bottom - h0;
      bars.push(
        s(
          "rect",
          { x, y, width: barWidth, height: Math.max(0, h0), class: si === 0 ? "bar-a" : "bar-b" },
          s("title", {}, `Wake ${i + 1} ${sr.name}: ${format(v)}`),
        ),
      );
    });
  });
  const labels = series[0].values.map((_, i) =>
    s("text", { x: 5 + i * slot + slot / 2 - 3, y: height - 5 }, String(i + 1))
  );
  const summary = series.map((sr) => `${sr.name}: ${sr.values.map(format).join(", ") || "none"}`)
    .join("; ");
  const svg = s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}. ${summary}` },
    s("text", { x: 5, y: 9 }, `max ${format(max === 1e-9 ? 0 : max)}`),
    ...bars,
    ...labels,
  );
  const legend = series.length > 1
    ? h(
      "p",
      { className: "hint" },
      series.map((sr, i) => `${i === 0 ? "■ blue" : "■ amber"}: ${sr.name}`).join(" · "),
    )
    : null;
  return h("figure", { className: "chart" }, h("figcaption", {}, title), svg, legend);
}

function renderCharts(done) {
  const charts = document.getElementById("charts");
  if (done.length === 0) {
    charts.replaceChildren();
    return;
  }
  const pick = (f) => done.map(f);
  charts.replaceChildren(
    barChart("Tokens per wake", [
      { name: "in", values: pick((w) => w.summary.tokensIn) },
      { name: "out", values: pick((w) => w.summary.tokensOut) },
    ], (v) => String(Math.round(v))),
    barChart(
      "Cost per wake (USD)",
      [{ name: "cost", values: pick((w) => w.summary.cost ?? 0) }],
      (v) => `$${v.toFixed(4)}`,
    ),
    barChart("Cache-hit ratio per wake", [{
      name: "cached ÷ in",
      values: pick((w) => w.summary.tokensIn ? w.summary.cachedTokens / w.summary.tokensIn : 0),
    }], (v) => `${(v * 100).toFixed(0)}%`),
    barChart(
      "Wake duration",
      [{ name: "seconds", values: pick((w) => (w.ms ?? 0) / 1000) }],
      (v) => `${v.toFixed(2)} s`,
    ),
  );
}

// ---- forms --------------------------------------------------------------------------------

/** This run's write token, which the server wrote into the page (docs/playground.md#safety). */
const PAGE_TOKEN = document.querySelector('meta[name="playground-token"]')?.content ?? "";

async function send(path, body, done) {
  const init = { method: "POST", headers: { "playground-token": PAGE_TOKEN } };
  if (body instanceof FormData) init.body = body;
  else if (body !== null) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  try {
    const reply = await fetch(path, init);
    const answer = await reply.json().catch(() => ({}));
    if (!reply.ok) {
      status(`Refused: ${answer.error ?? reply.status}`);
      return false;
    }
    status(done);
    return true;
  } catch (error) {
    status(`Could not reach the playground: ${error}`);
    return false;
  }
}

function wireForms() {
  document.getElementById("composer").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    const body = document.getElementById("body");
    if (!timeline || !body.value.trim()) return;
    if (await send("/api/post", { timeline: timeline.uuid, body: body.value }, "Message posted.")) {
      body.value = "";
    }
  });
  document.getElementById("uploader").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    const form = event.target;
    if (!timeline) return;
    const data = new FormData(form);
    data.set("timeline", timeline.uuid);
    if (await send("/api/upload", data, "File uploaded.")) form.reset();
  });
  document.getElementById("scheduler").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    if (!timeline) return;
    const instructions = document.getElementById("instructions");
    const minutes = Number(document.getElementById("minutes").value);
    const ok = await send(
      "/api/tasks",
      { timeline: timeline.uuid, instructions: instructions.value, minutes },
      "Task scheduled.",
    );
    if (ok) instructions.value = "";
  });
}

function connect() {
  const connection = document.getElementById("connection");
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => {
    state = JSON.parse(event.data);
    connection.textContent = "Live";
    render();
  });
  events.addEventListener("update", (event) => {
    if (state) applyUpdate(JSON.parse(event.data));
  });
  events.addEventListener("error", () => {
    connection.textContent = "Disconnected — retrying…";
  });
}

wireForms();
connect();
