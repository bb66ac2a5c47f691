import type { RunTimeline as Run } from "../../../contract/console.ts";
import { api, type Me } from "../api.ts";
import type { Verification } from "../claims/claim-match.ts";
import { type CheckedSource, showEvidence } from "../claims/show-evidence.ts";
import { verificationNote } from "../claims/verification-note.ts";
import { fmtDate, h, mount, svg } from "../dom.ts";
import { fmtNumber, fmtSeconds, plural } from "../format.ts";
import { renderMarkdown } from "../markdown.ts";
import { sourcesList } from "./sources-list.ts";

const STAGES = ["planning", "searching", "reading", "writing", "verifying"];
type Entry = Run["events"][number];
const ms = (n: number) => `${fmtNumber(n)} ms`;

/** The counts a `verifying` entry carries; null on every other entry. */
function countsOf(e: Entry): Verification | null {
  const x = e as { stage?: string } & Partial<Verification>;
  return x.stage === "verifying" && typeof x.claims === "number" ? (x as Verification) : null;
}

/** A `verifying` entry's counts in words; nothing for the other entries. */
function counts(e: Entry): string {
  const v = countsOf(e);
  return v
    ? ` — ${plural(v.claims, "claim")}, ${fmtNumber(v.cited)} cited, ${fmtNumber(v.supported)} supported, ${fmtNumber(v.unsupported)} unsupported${verdicts(v)}, coverage ${Math.round(v.coverage * 100)} %`
    : "";
}

/** The counts runs checked before verdicts lack: said only when the entry has them. */
function verdicts(v: Verification): string {
  return `${v.contradicted === undefined ? "" : `, ${fmtNumber(v.contradicted)} contradicted`}${v.recited === undefined ? "" : `, ${fmtNumber(v.recited)} re-cited`}`;
}

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
        svg("title", {}, `${st}: ${ms(b - a)}`),
      ),
    );
    for (const e of evs)
      parts.push(
        svg(
          "rect",
          { class: "ev", x: x(e.at_ms) - 1, y, width: 2, height: lane - 8 },
          svg("title", {}, `${ms(e.at_ms)} — ${e.message ?? ""}`),
        ),
      );
  });
  for (const e of run.events.filter((e) => e.type === "error"))
    parts.push(
      svg(
        "rect",
        { class: "ev-error", x: x(e.at_ms) - 2, y: 0, width: 4, height: H - 20 },
        svg("title", {}, `${ms(e.at_ms)} — ${e.code}`),
      ),
    );
  parts.push(svg("text", { x: left, y: H - 4 }, "0 ms"), svg("text", { x: W - 60, y: H - 4 }, ms(end)));
  return svg(
    "svg",
    { class: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Run timeline over ${ms(end)}` },
    ...parts,
  );
}

/** The timeline of one run: stages on a time axis, events, sources, answer, errors. */
export async function runPage(me: Me, id: string): Promise<void> {
  const run = await api<Run>("GET", `/api/console/runs/${encodeURIComponent(id)}`).catch(() => null);
  if (!run)
    return mount(
      h("h1", {}, "Run not found"),
      h("p", {}, h("a", { href: "/usage", "data-link": true }, "Back to usage")),
    );
  // Stored with the run's outcome in the same commit as its verifying entry (docs/decisions/0107-claims-in-an-answer.md).
  const verification = run.verification ?? null;
  const answer = run.answer ? h("div", { class: "answer" }, renderMarkdown(run.answer)) : null;
  const marked = answer ? showEvidence(answer, run.sources as CheckedSource[], verification) : 0;
  mount(
    h("h1", {}, "Run timeline"),
    h("p", {}, h("strong", {}, run.query)),
    h(
      "p",
      { class: "muted" },
      `${fmtDate(run.created_at)} · ${run.origin} · `,
      h("span", { class: `status-${run.status}` }, run.status),
      run.latency_ms !== null ? ` · ${fmtSeconds(run.latency_ms, 2)}` : "",
    ),
    // What to look the run up by in the tracing backend (README "Traces").
    run.trace_id ? h("p", { class: "muted trace-id" }, "Trace ", h("code", {}, run.trace_id)) : null,
    // Scrolls sideways inside its own box on a phone: squeezed to 390 px its labels are unreadable.
    h("div", { class: "scroll-x", tabindex: 0, role: "group", "aria-label": "Timeline" }, timeline(run)),
    // Shown on a phone only, where the box is narrower than the timeline: nothing else said it scrolls.
    h("p", { class: "scroll-hint muted" }, "Scroll sideways for the whole timeline."),
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
          h("code", {}, ms(e.at_ms)),
          ` ${e.type}${e.stage ? ` · ${e.stage}` : ""} ${e.message ?? e.code ?? ""}${counts(e)}`,
        ),
      ),
    ),
    run.answer ? h("h2", {}, "Answer") : null,
    answer,
    verification && answer
      ? verificationNote(verification, marked, run.writer === "extractive" ? run.sources.length : null)
      : null,
    h("h2", {}, "Sources"),
    run.sources.length ? sourcesList(run.sources, me) : h("p", { class: "muted" }, "None."),
  );
}
