import type { Usage } from "../../../contract/console.ts";
import { api } from "../api.ts";
import { storageLine } from "../documents/storage-line.ts";
import { fmtDate, h, mount, svg } from "../dom.ts";
import { fmtNumber, fmtSeconds, plural } from "../format.ts";

/** Stacked bars (ok below, error above) per day, drawn with SVG attributes (CSP-safe). */
function chart(days: Usage["per_day"]): SVGElement {
  const W = 600,
    H = 140,
    pad = 18;
  const max = Math.max(1, ...days.map((d) => d.calls));
  const bw = (W - pad) / Math.max(days.length, 1);
  const bars = days.flatMap((d, i) => {
    const x = pad + i * bw + 1,
      okH = ((H - pad) * d.ok) / max,
      errH = ((H - pad) * d.error) / max;
    const title = svg(
      "title",
      {},
      `${d.date}: ${plural(d.calls, "call")} (${fmtNumber(d.ok)} ok, ${fmtNumber(d.error)} error)`,
    );
    return [
      svg(
        "g",
        {},
        title,
        svg("rect", { class: "ok", x, y: H - pad - okH, width: Math.max(1, bw - 2), height: okH }),
        svg("rect", { class: "error", x, y: H - pad - okH - errH, width: Math.max(1, bw - 2), height: errH }),
      ),
      ...(i % 5 === 0 ? [svg("text", { x, y: H - 4 }, d.date.slice(8))] : []),
    ];
  });
  return svg(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "aria-label": `Calls per day this month, highest ${fmtNumber(max)}`,
    },
    svg("text", { x: 0, y: 10 }, fmtNumber(max)),
    ...bars,
  );
}

/** At most `max` code points: slicing UTF-16 units would cut an emoji in half. */
function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** Usage: plan, allowance with reset date, calls per day, recent calls linking to timelines. */
export async function usagePage(): Promise<void> {
  const u = await api<Usage>("GET", "/api/console/usage");
  const row = (r: Usage["recent"][number]) =>
    h(
      "tr",
      {},
      h(
        "td",
        { "data-label": "When" },
        h("a", { href: `/runs/${r.request_id}`, "data-link": true }, fmtDate(r.created_at)),
      ),
      h("td", { "data-label": "Status", class: `status-${r.status}` }, r.status),
      h("td", { "data-label": "Origin" }, r.origin),
      h("td", { "data-label": "Key" }, r.key_prefix ? h("code", {}, `${r.key_prefix}…`) : "—"),
      h("td", { "data-label": "Latency" }, r.latency_ms === null ? "—" : fmtSeconds(r.latency_ms)),
      h("td", { "data-label": "Query" }, shorten(r.query, 80)),
    );
  const head = h(
    "thead",
    {},
    h("tr", {}, ...["When", "Status", "Origin", "Key", "Latency", "Query"].map((c) => h("th", { scope: "col" }, c))),
  );
  const recent = u.recent.length
    ? h("div", { class: "table-wrap" }, h("table", { class: "cards" }, head, h("tbody", {}, ...u.recent.map(row))))
    : h("p", { class: "muted" }, "No calls yet.");
  mount(
    h("h1", {}, "Usage"),
    h(
      "p",
      {},
      h("strong", {}, `${fmtNumber(u.allowance.used)} of ${fmtNumber(u.allowance.limit)}`),
      ` research runs used this month on the ${u.plan} plan; ${fmtNumber(u.allowance.remaining)} left. Resets ${fmtDate(u.period.end)}.`,
    ),
    h(
      "p",
      { class: "muted" },
      `${plural(u.totals.calls, "call")} this month: ${fmtNumber(u.totals.ok)} ok, ${fmtNumber(u.totals.error)} error.`,
    ),
    storageLine(u),
    h("h2", {}, "Calls per day"),
    chart(u.per_day),
    h("h2", {}, "Recent calls"),
    recent,
  );
}
