// The conversation: the timelines the first human views, their items, and the composer beside
// them — post as any human seat, mention a viewer, upload a file, schedule a task, seat
// another human.

import { get, post, say } from "./api.js";
import { h, num, plural, time } from "./dom.js";
import { currentSeat, currentTimeline, store } from "./store.js";

/** Each item's element by uuid, with the text it was built from, reused while that is unchanged. */
const itemNodes = new Map();
/** The timeline whose items the list shows. */
let shown = null;
/** Whether the list keeps its end in view (the reader has not scrolled up to read). */
let following = true;
/**
 * The older items the reader loaded, by timeline uuid, oldest first: the state carries only each
 * timeline's newest items (docs/playground.md#a-long-session).
 */
const loadedOlder = new Map();

/** Forgets the older items loaded: a new state (a reconnect) starts each list afresh. */
export function forgetOlderItems() {
  loadedOlder.clear();
}

/**
 * Takes an update's timelines. Items that slide out of a timeline's newest while the reader has
 * older ones loaded join those, so the list never has a gap; otherwise they count as older.
 */
export function applyTimelines(timelines) {
  for (const t of timelines) {
    const loaded = loadedOlder.get(t.uuid);
    const before = store.state.timelines.find((x) => x.uuid === t.uuid);
    if (!loaded?.length || !before || t.items.length === 0) continue;
    const first = t.items[0].uuid;
    const known = new Set(loaded.map((i) => i.uuid));
    // Item uuids are UUIDv7: their order is the timeline's.
    loaded.push(...before.items.filter((i) => i.uuid < first && !known.has(i.uuid)));
  }
  store.state.timelines = timelines;
  renderTimelines();
}

/** The "Show older messages" control above the items, while the timeline has older ones. */
function renderOlderItems(timeline) {
  const box = document.getElementById("older-items");
  const left = timeline.olderItems - (loadedOlder.get(timeline.uuid)?.length ?? 0);
  if (left <= 0) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(h("button", {
    type: "button",
    className: "secondary small",
    "data-key": `older-items/${timeline.uuid}`,
    onclick: () => showOlderItems(timeline.uuid),
  }, `Show ${plural(Math.min(50, left), "older item")} (${num(left)} not shown)`));
}

/** Fetches the next page of older items of the timeline shown. */
async function showOlderItems(uuid) {
  const timeline = store.state.timelines.find((t) => t.uuid === uuid);
  if (!timeline) return;
  const loaded = loadedOlder.get(uuid) ?? [];
  const first = loaded[0] ?? timeline.items[0];
  say("items-status", "Loading older items…");
  try {
    const page = await get(
      `/api/items?timeline=${uuid}&before=${encodeURIComponent(first.uuid)}&limit=50`,
    );
    loadedOlder.set(uuid, [...page.items, ...loaded.filter((i) => i.uuid >= first.uuid)]);
    say("items-status", `Showing ${plural(page.items.length, "older item")} more.`);
    following = false;
    renderTimelines();
    document.getElementById("items").scrollTop = 0;
  } catch (error) {
    say("items-status", `Could not load older items: ${error.message}`);
  }
}

/** Renders the timeline tabs, the items and the composer's seat and mention buttons. */
export function renderTimelines() {
  const state = store.state;
  const timeline = currentTimeline();
  document.getElementById("timeline-list").replaceChildren(
    ...state.timelines.map((t) =>
      h(
        "li",
        {},
        h("button", {
          type: "button",
          className: "chip",
          "data-key": `tab/${t.uuid}`,
          "aria-current": t.uuid === timeline?.uuid ? "true" : "false",
          onclick: () => {
            store.selected = t.uuid;
            renderTimelines();
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
  // Follow the conversation: a new timeline opens at its end, and new items keep the end in
  // view unless the reader scrolled up to read.
  if (shown !== timeline.uuid) following = true;
  shown = timeline.uuid;
  const older = loadedOlder.get(timeline.uuid) ?? [];
  reconcile(items, [...older, ...timeline.items].map(cachedItem));
  renderOlderItems(timeline);
  if (following) items.scrollTop = items.scrollHeight;
  renderSeats();
  renderMentions(timeline);
}

function nearBottom(el) {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 80;
}

function renderSeats() {
  const select = document.getElementById("seat");
  const seat = currentSeat();
  const humans = store.state.humans;
  if (select.options.length !== humans.length) {
    select.replaceChildren(
      ...humans.map((s) => h("option", { value: s.handle }, `@${s.handle} (${s.name})`)),
    );
  }
  if (seat) select.value = seat.handle;
}

function renderMentions(timeline) {
  const seat = currentSeat();
  document.getElementById("mentions").replaceChildren(
    ...timeline.viewers.filter((v) => v !== seat?.handle).map((handle) =>
      h("button", {
        type: "button",
        className: "chip",
        "data-key": `mention/${handle}`,
        onclick: () => {
          const body = document.getElementById("body");
          const sep = body.value && !body.value.endsWith(" ") ? " " : "";
          body.value = `${body.value}${sep}@${handle} `;
          body.focus();
        },
      }, `Mention @${handle}`)
    ),
  );
}

function cachedItem(item) {
  const key = JSON.stringify(item) + store.state.agent.handle;
  const known = itemNodes.get(item.uuid);
  if (known?.key === key) return known.el;
  const el = renderItem(item);
  itemNodes.set(item.uuid, { key, el });
  return el;
}

/**
 * Makes `parent`'s children exactly `nodes`, touching only positions that differ, so a timeline
 * that gained one item moves nothing else.
 */
function reconcile(parent, nodes) {
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

function renderItem(item) {
  const fromAgent = item.author === store.state.agent.handle;
  const meta = h(
    "p",
    { className: "meta" },
    h("span", { className: "author" }, item.author ? `@${item.author}` : "webhook"),
    ` · ${item.type} · `,
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
    parts.push(h(
      "p",
      { className: "meta" },
      `status ${item.task.status} · due ${time(item.task.activateAt)}`,
    ));
    if (item.task.status === "pending") {
      parts.push(h("button", {
        type: "button",
        className: "small",
        "data-key": `activate/${item.uuid}`,
        onclick: () => act(`/api/tasks/${item.uuid}/activate`, null, "Task activated."),
      }, "Activate now"));
    }
  }
  return h(
    "li",
    { className: `item${fromAgent ? " from-agent" : ""}`, "data-item": item.uuid },
    parts,
  );
}

async function act(path, body, done) {
  try {
    await post(path, body);
    say("form-status", done);
    return true;
  } catch (error) {
    say("form-status", error.message);
    return false;
  }
}

/** Keeps the end of the conversation in view while the reader follows it (once). */
function wireFollowing() {
  const items = document.getElementById("items");
  items.addEventListener("scroll", () => following = nearBottom(items), { passive: true });
  // A resized window or list keeps a followed conversation at its end.
  new ResizeObserver(() => {
    if (following) items.scrollTop = items.scrollHeight;
  }).observe(items);
}

/** Wires the composer's forms (once). */
export function wireComposer() {
  wireFollowing();
  document.getElementById("seat").addEventListener("change", (event) => {
    store.seat = event.target.value;
    renderMentions(currentTimeline());
  });
  const body = document.getElementById("body");
  const composer = document.getElementById("composer");
  composer.addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    if (!timeline || !body.value.trim()) return;
    const seat = currentSeat()?.handle;
    const message = { timeline: timeline.uuid, body: body.value, as: seat };
    if (await act("/api/post", message, `Message posted as @${seat}.`)) body.value = "";
  });
  // Ctrl+Enter (⌘+Enter) posts from the message box, as chat clients do.
  body.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });
  document.getElementById("uploader").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    if (!timeline) return;
    const data = new FormData(event.target);
    data.set("timeline", timeline.uuid);
    const seat = currentSeat();
    if (seat) data.set("as", seat.handle);
    if (await act("/api/upload", data, "File uploaded.")) event.target.reset();
  });
  document.getElementById("scheduler").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    if (!timeline) return;
    const instructions = document.getElementById("instructions");
    const minutes = Number(document.getElementById("minutes").value);
    const task = { timeline: timeline.uuid, instructions: instructions.value, minutes };
    if (await act("/api/tasks", { ...task, as: currentSeat()?.handle }, "Task scheduled.")) {
      instructions.value = "";
    }
  });
  document.getElementById("seater").addEventListener("submit", async (event) => {
    event.preventDefault();
    const handle = document.getElementById("seat-handle");
    const name = document.getElementById("seat-name");
    try {
      const seat = await post("/api/seats", { handle: handle.value.trim(), name: name.value });
      store.state.humans = [...store.state.humans, seat];
      store.seat = seat.handle;
      handle.value = "";
      name.value = "";
      say("form-status", `@${seat.handle} is seated; the composer now posts as @${seat.handle}.`);
      renderTimelines();
    } catch (error) {
      say("form-status", error.message);
    }
  });
}
