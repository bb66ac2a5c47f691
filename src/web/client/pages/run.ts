import type { RunTimeline as Run } from "../../../contract/console.ts";
import type { Source } from "../../../contract/envelope.ts";
import { api } from "../api.ts";
import { documentHref } from "../doc-links.ts";
import { fmtDate, h, hostOf, mount, svg } from "../dom.ts";
import { renderMarkdown } from "../markdown.ts";

const STAGES = ["planning", "searching", "reading", "writing"];

/** Stages as lanes on a time axis; each event a tick, each stage a span from its first to last event. */
function timeline(run: Run): SVGElement {
  const end = Math.max(1, run.latency_ms ?? 0, ...run.events.map((e) => e.at_ms));
  const W = 640,
    lane = 26,
    left = 80,
    H = lane * STAGES.length + 24;
  const x = (ms: number) => left + ((W - left - 10) * ms) / end;
  const parts: SVGElement[] = [];
  STAGES.forEach((st, i) => {
    const evs = run.events.filter((e) => e.stage === st);
    const y = i * lane + 4;
    parts.push(svg("text", { x: 0, y: y + 15 }, st));
    if (!evs.length) return;
    const a = Math.min(...evs.map((e) => e.at_ms)),
      b = Math.max(...evs.map((e) => e.at_ms));
    parts.push(
      svg(
        "rect",
        { class: "lane", x: x(a), y, width: Math.max(3, x(b) - x(a)), height: lane - 8 },
        svg("title", {}, `${st}: ${b - a} ms`),
      ),
    );
    for (const e of evs)
      parts.push(
        svg(
          "rect",
          { class: "ev", x: x(e.at_ms) - 1, y, width: 2, height: lane - 8 },
          svg("title", {}, `${e.at_ms} ms — ${e.message ?? ""}`),
        ),
      );
  });
  for (const e of run.events.filter((e) => e.type === "error"))
    parts.push(
      svg(
        "rect",
        { class: "ev-error", x: x(e.at_ms) - 2, y: 0, width: 4, height: H - 20 },
        svg("title", {}, `${e.at_ms} ms — ${e.code}`),
      ),
    );
  parts.push(svg("text", { x: left, y: H - 4 }, "0 ms"), svg("text", { x: W - 60, y: H - 4 }, `${end} ms`));
  return svg(
    "svg",
    { class: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Run timeline over ${end} ms` },
    ...parts,
  );
}

/**
 * A source's title and where it is from. A web page or paper links out; a document of the
 * service's own collections links to its page in the app (title, collection, the passage the
 * answer quoted marked), never to its `local:` reference, which leads nowhere in a browser, nor
 * to its own URL, which may be a path on the server or an intranet address.
 */
function sourceItem(s: Source): HTMLElement {
  const head = h("strong", {}, `[${s.id}] `);
  if (s.type === "local") {
    // A run recorded before sources named their collection has nothing to link to.
    const href = s.collection && s.doc_id ? documentHref({ name: s.collection, docId: s.doc_id }, s.snippet) : null;
    return h(
      "li",
      { id: `src-${s.id}`, class: "local" },
      head,
      href ? h("a", { href, "data-link": true }, s.title) : h("span", { class: "title" }, s.title),
      h(
        "span",
        { class: "muted" },
        ` — ${s.collection ?? "collection"} · `,
        h("code", {}, s.doc_id ?? s.url),
        " · local",
      ),
    );
  }
  return h(
    "li",
    { id: `src-${s.id}` },
    head,
    h("a", { href: /^https?:/.test(s.url) ? s.url : "#", rel: "noopener noreferrer", target: "_blank" }, s.title),
    h(
      "span",
      { class: "muted" },
      ` — ${hostOf(s.url)} · ${s.type}${s.venue ? ` · ${s.venue}` : ""}${s.published_at ? ` · ${s.published_at}` : ""}`,
    ),
  );
}

export function sourcesList(sources: Source[]): HTMLElement {
  return h("ol", { class: "sources" }, ...sources.map(sourceItem));
}

/** The timeline of one run: stages on a time axis, events, sources, answer, errors. */
export async function runPage(_me: unknown, id: string): Promise<void> {
  const run = await api<Run>("GET", `/api/console/runs/${encodeURIComponent(id)}`).catch(() => null);
  if (!run)
    return mount(
      h("h1", {}, "Run not found"),
      h("p", {}, h("a", { href: "/usage", "data-link": true }, "Back to usage")),
    );
  mount(
    h("h1", {}, "Run timeline"),
    h("p", {}, h("strong", {}, run.query)),
    h(
      "p",
      { class: "muted" },
      `${fmtDate(run.created_at)} · ${run.origin} · `,
      h("span", { class: `status-${run.status}` }, run.status),
      run.latency_ms !== null ? ` · ${(run.latency_ms / 1000).toFixed(2)} s` : "",
    ),
    // Scrolls sideways inside its own box on a phone: squeezed to 390 px its labels are unreadable.
    h("div", { class: "scroll-x", tabindex: 0, role: "group", "aria-label": "Timeline" }, timeline(run)),
    run.errors.length
      ? h(
          "div",
          { class: "alert", role: "alert" },
          ...run.errors.map((e) => h("p", {}, h("code", {}, e.code), ` ${e.message}`)),
        )
      : null,
    h("h2", {}, "Events"),
    h(
      "ol",
      { class: "log" },
      ...run.events.map((e) =>
        h(
          "li",
          {},
          h("code", {}, `${e.at_ms} ms`),
          ` ${e.type}${e.stage ? ` · ${e.stage}` : ""} ${e.message ?? e.code ?? ""}`,
        ),
      ),
    ),
    run.answer ? h("h2", {}, "Answer") : null,
    run.answer ? h("div", { class: "answer" }, renderMarkdown(run.answer)) : null,
    h("h2", {}, "Sources"),
    run.sources.length ? sourcesList(run.sources) : h("p", { class: "muted" }, "None."),
  );
}
