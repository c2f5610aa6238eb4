// The studio page: renders the server's snapshot (sent whole when the event stream opens, then as
// updates carrying only the wakes and timelines that changed), and wires the composer and the
// studio's tabs. See docs/playground.md.

import { say } from "./api.js";
import { loadDrafts, wireDrafts } from "./drafts.js";
import { loadNotes, wireMemory } from "./memory.js";
import { store } from "./store.js";
import { wireTabs } from "./tabs.js";
import { applyTimelines, forgetOlderItems, renderTimelines, wireComposer } from "./timeline.js";
import { loadTools, wireTools } from "./tools.js";
import { applyWakes, renderWakes, showLinkedWake } from "./wakes.js";

/** Panels that load what they show when first shown. */
const loaded = new Set();
const LOADERS = { "panel-drafts": loadDrafts, "panel-memory": loadNotes, "panel-tools": loadTools };

function showPanel(id) {
  if (!store.state || loaded.has(id) || !LOADERS[id]) return;
  loaded.add(id);
  LOADERS[id]();
}

/** Keeps keyboard focus where it was when a render replaces the focused element. */
function keepingFocus(render) {
  const focused = document.activeElement;
  const key = focused?.getAttribute?.("data-key");
  render();
  if (key && !focused.isConnected) {
    document.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }
}

function renderAll() {
  const state = store.state;
  document.getElementById("who").textContent =
    `Agent @${state.agent.handle} · model ${state.model}`;
  renderTimelines();
  renderWakes();
}

function connect() {
  const events = new EventSource("/api/events");
  let first = true;
  events.addEventListener("state", (event) => {
    store.state = JSON.parse(event.data);
    forgetOlderItems();
    say("connection", "Live");
    keepingFocus(renderAll);
    const shown = document.querySelector('[role="tab"][aria-selected="true"]');
    if (shown) showPanel(shown.getAttribute("aria-controls"));
    // A link to a wake's panel opens it once the first state is in (not on a reconnect).
    if (first) showLinkedWake();
    first = false;
  });
  events.addEventListener("update", (event) => {
    if (!store.state) return;
    const update = JSON.parse(event.data);
    keepingFocus(() => {
      if (update.timelines) applyTimelines(update.timelines);
      applyWakes(update.wakes);
    });
  });
  events.addEventListener("error", () => say("connection", "Disconnected — retrying…"));
}

wireComposer();
wireDrafts();
wireMemory();
wireTools();
wireTabs(document.getElementById("studio-tabs"), showPanel);
addEventListener("hashchange", () => showLinkedWake());
connect();
