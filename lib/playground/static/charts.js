// Charts over the finished wakes the page holds (the newest, and the older ones the reader
// loaded): inline SVG, one bar group per wake, numbered as the panels. A value nobody knows (a
// cost without a price, a cache-hit ratio without input tokens) is drawn as "no data", never as
// zero; a chart with no value at all says so instead.

import { h, num, s, usd } from "./dom.js";
import { store } from "./store.js";

/**
 * A bar chart. `numbers`: each bar group's wake number; `series`: [{name, cls, values}] where a
 * value may be null (no data); `format` spells a value. Its accessible name lists every value.
 */
function barChart(title, numbers, series, format, empty) {
  const n = series[0].values.length;
  const known = series.flatMap((sr) => sr.values.filter((v) => v !== null));
  if (known.length === 0) {
    return h(
      "figure",
      { className: "chart no-data" },
      h("figcaption", {}, title),
      h("p", { className: "hint" }, empty),
    );
  }
  const width = 320, height = 120, top = 14, bottom = 16, left = 4;
  const max = Math.max(1e-9, ...known);
  const slot = (width - left * 2) / Math.max(n, 1);
  const barWidth = Math.max(1, slot / series.length - (slot > 6 ? 1 : 0));
  const bars = [];
  series.forEach((sr, si) => {
    sr.values.forEach((v, i) => {
      const x = left + i * slot + si * barWidth;
      const label = `Wake ${numbers[i]} ${sr.name}: ${v === null ? "no data" : format(v)}`;
      if (v === null) {
        bars.push(s(
          "rect",
          { x, y: height - bottom - 6, width: barWidth, height: 6, class: "bar nodata" },
          s("title", {}, label),
        ));
        return;
      }
      const tall = ((height - top - bottom) * v) / max;
      bars.push(s(
        "rect",
        {
          x,
          y: height - bottom - tall,
          width: barWidth,
          height: Math.max(0, tall),
          class: `bar ${sr.cls}`,
        },
        s("title", {}, label),
      ));
    });
  });
  const step = Math.max(1, Math.ceil(n / 12));
  const labels = series[0].values.flatMap((_, i) =>
    i % step === 0 || i === n - 1
      ? [
        s(
          "text",
          { x: left + i * slot + slot / 2, y: height - 4, "text-anchor": "middle" },
          String(numbers[i]),
        ),
      ]
      : []
  );
  const summary = series.map((sr) =>
    `${sr.name}: ${sr.values.map((v) => (v === null ? "no data" : format(v))).join(", ")}`
  ).join("; ");
  const svg = s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}. ${summary}` },
    s("text", { x: left, y: 10 }, max === 1e-9 ? `all ${format(0)}` : `max ${format(max)}`),
    s("line", { x1: 0, x2: width, y1: height - bottom, y2: height - bottom, class: "axis" }),
    ...bars,
    ...labels,
  );
  const gaps = series.some((sr) => sr.values.includes(null));
  const legend = h(
    "ul",
    { className: "legend" },
    series.map((sr) =>
      h("li", {}, h("span", { className: `swatch ${sr.cls}`, "aria-hidden": "true" }), sr.name)
    ),
    gaps
      ? h("li", {}, h("span", { className: "swatch nodata", "aria-hidden": "true" }), "no data")
      : null,
  );
  return h("figure", { className: "chart" }, h("figcaption", {}, title), svg, legend);
}

/** Renders the four charts over `done` (the finished wakes that ran, of those the page holds). */
export function renderCharts(done) {
  const charts = document.getElementById("charts");
  if (done.length === 0) {
    charts.replaceChildren();
    return;
  }
  const pick = (f) => done.map(f);
  const numbers = pick((w) => w.n);
  const prices = store.state.prices;
  const unpriced = prices.problem
    ? `No cost: ${prices.problem}`
    : `No cost: the provider reported none and ${prices.file} has no price for this model.`;
  charts.replaceChildren(
    barChart(
      "Tokens per wake",
      numbers,
      [
        { name: "in", cls: "s-in", values: pick((w) => w.tokensIn) },
        { name: "out", cls: "s-out", values: pick((w) => w.tokensOut) },
        { name: "cached", cls: "s-cached", values: pick((w) => w.cachedTokens) },
      ],
      (v) => num(v),
      "No model call yet.",
    ),
    barChart(
      "Cost per wake (USD)",
      numbers,
      [{ name: "cost", cls: "s-cost", values: pick((w) => w.cost.usd) }],
      (v) => usd(v),
      unpriced,
    ),
    barChart(
      "Cache hit per wake (cached ÷ in)",
      numbers,
      [{
        name: "cache hit",
        cls: "s-cached",
        values: pick((w) => (w.tokensIn > 0 ? w.cachedTokens / w.tokensIn : null)),
      }],
      (v) => `${(v * 100).toFixed(0)}%`,
      "No data: no wake sent input tokens yet.",
    ),
    barChart(
      "Wake duration",
      numbers,
      [{ name: "seconds", cls: "s-time", values: pick((w) => (w.ms ?? 0) / 1000) }],
      (v) => `${v.toFixed(2)} s`,
      "No wake finished yet.",
    ),
  );
}
