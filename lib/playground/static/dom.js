// Building the page's elements and formatting its numbers. Untrusted text is only ever set as
// text (a text node or an attribute), never parsed as HTML.

const SVG = "http://www.w3.org/2000/svg";

/** Builds an element; attributes starting with "on" become listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "className") el.className = value;
    else if (key === "style") el.setAttribute("style", value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Builds an SVG element. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Open <details> keys, so a panel rebuilt by an update keeps what the reader opened. */
const openDetails = new Set();

/**
 * A <details> whose open state survives re-rendering. Its body is built when it is first shown
 * (`build` returns the children, or a promise of them), so closed panels cost the page nothing.
 */
export function details(key, summary, build, attrs = {}) {
  const el = h(
    "details",
    { ...attrs, "data-key": key, open: openDetails.has(key) },
    h("summary", { "data-key": `${key}/summary` }, summary),
  );
  let built = false;
  const fill = async () => {
    if (built) return;
    built = true;
    const body = h("div", { className: "details-body", "aria-busy": "true" }, "Loading…");
    el.append(body);
    try {
      body.replaceChildren(...[await build()].flat(Infinity).filter((c) => c != null));
    } catch (error) {
      body.replaceChildren(h("p", { className: "bad" }, `Could not load: ${error.message}`));
    }
    body.removeAttribute("aria-busy");
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

/** Whether the <details> of `key` is open. */
export function isOpen(key) {
  return openDetails.has(key);
}

export function time(iso) {
  const d = new Date(iso);
  return Number.isNaN(+d) ? iso : d.toLocaleTimeString();
}

export function seconds(ms) {
  return ms === null || ms === undefined ? "running…" : `${(ms / 1000).toFixed(2)} s`;
}

const grouped = new Intl.NumberFormat("en-US");

/** A whole number with thousands separators. */
export function num(n) {
  return grouped.format(Math.round(n));
}

/** A share as a percentage with one decimal. */
export function pct(part, whole) {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "–";
}

/** USD with enough digits to see a small cost. */
export function usd(n) {
  return n >= 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(6)}`;
}

/** A wake's cost and where it came from; never a number for an unknown cost. */
export function costText(cost) {
  if (cost.usd === null) return cost.source === null ? "no price" : "–";
  const why = {
    provider: "reported by the provider",
    "prices.json": "priced from prices.json",
    "built-in prices": "priced from the built-in list prices",
    sandbox: "the sandbox model is free",
    "no model call": "no model call",
  }[cost.source];
  return `${usd(cost.usd)} (${why})`;
}

/** `n thing`/`n things`. */
export function plural(n, one, many = `${one}s`) {
  return `${num(n)} ${n === 1 ? one : many}`;
}
