import type { Envelope, Source } from "../../../contract/envelope.ts";
import type { Me } from "../api.ts";
import { limitCodePoints, MAX_QUERY_CHARS } from "../char-limit.ts";
import type { Verification } from "../claims/claim-match.ts";
import { type CheckedSource, showEvidence } from "../claims/show-evidence.ts";
import { verificationNote } from "../claims/verification-note.ts";
import { fmtDate, h, mount } from "../dom.ts";
import { fmtSeconds } from "../format.ts";
import { renderMarkdown } from "../markdown.ts";
import { messageLines } from "../message-nodes.ts";
import { readEvents } from "../sse.ts";
import { sourcesList } from "./sources-list.ts";

const STAGES = ["planning", "searching", "reading", "writing", "verifying"] as const;
/** How often a broken stream is resumed before the page gives up. */
const MAX_RESUMES = 5;

/** A random Idempotency-Key; getRandomValues works on plain http too, unlike randomUUID. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Ask a question; live progress by stage; the answer renders as it streams; then the sources. */
export function researchPage(me: Me): void {
  const question = h("textarea", {
    name: "query",
    required: true,
    placeholder: "e.g. What limits the energy density of solid-state batteries?",
  });
  const ask = h("button", { type: "submit" }, "Ask");
  const stages = h(
    "ol",
    { class: "stages", "aria-label": "Progress" },
    ...STAGES.map((s) => h("li", { "data-stage": s }, s)),
  );
  const log = h("ul", { class: "log", "aria-live": "polite" });
  const status = h("div", { role: "status", "aria-live": "polite" });
  // Hidden until the first words arrive: an empty bordered box looked like a field to fill in.
  const answer = h("div", { class: "answer", "aria-live": "off", hidden: true });
  const checked = h("div");
  const sources = h("section", { "aria-label": "Sources" });
  const counter = limitCodePoints(question, MAX_QUERY_CHARS);
  const form = h("form", { class: "stack" }, h("label", {}, "Your question", question), counter, ask);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    ask.disabled = true;
    let text = "";
    const found: Source[] = [];
    log.replaceChildren();
    answer.replaceChildren();
    answer.hidden = true;
    checked.replaceChildren();
    sources.replaceChildren();
    status.replaceChildren();
    for (const [i, li] of [...stages.children].entries()) {
      li.className = "";
      li.textContent = STAGES[i]!;
    }
    let current = 0;
    const setStage = (st: string) => {
      const i = STAGES.indexOf(st as (typeof STAGES)[number]);
      if (i >= 0) current = i;
      Array.from(stages.children).forEach((li, j) => {
        li.className = j < i ? "done" : j === i ? "active" : "";
      });
    };
    // The stage a run ended in without an answer says so: left blue it read as still running.
    const failStage = () => {
      const li = stages.children[current]!;
      li.className = "failed";
      li.textContent = `${STAGES[current]} failed`;
    };
    const failed = (...lines: string[]) => {
      answer.replaceChildren();
      answer.hidden = true;
      status.replaceChildren(h("p", { class: "alert" }, ...messageLines(lines)));
    };
    const show = (event: string, d: Record<string, unknown>) => {
      if (event === "progress") {
        setStage(String(d.stage));
        log.append(h("li", {}, String(d.message ?? "")));
      } else if (event === "source") found.push(d as unknown as Source);
      else if (event === "answer") {
        text += String(d.delta ?? "");
        answer.replaceChildren(renderMarkdown(text));
        answer.hidden = text === "";
      } else if (event === "final") {
        const env = d as unknown as Envelope & { sources: CheckedSource[]; verification?: Verification };
        if (env.status === "ok" && env.answer) {
          answer.replaceChildren(renderMarkdown(env.answer));
          answer.hidden = false;
          const marked = showEvidence(answer, env.sources, env.verification ?? null);
          if (env.verification)
            checked.replaceChildren(
              verificationNote(env.verification, marked, env.writer === "extractive" ? env.sources.length : null),
            );
          // An answer that quotes nothing lists nothing (docs/decisions/0140-an-answer-when-no-source-is-on-the-question.md).
          sources.replaceChildren(
            ...(env.sources.length ? [h("h2", {}, "Sources"), sourcesList(env.sources, me)] : []),
          );
          Array.from(stages.children).forEach((li) => {
            li.className = "done";
          });
          status.replaceChildren(h("p", { class: "muted" }, `Done in ${fmtSeconds(env.usage.latency_ms)}.`));
        } else {
          failStage();
          failed(...env.errors.map((x) => `${x.message} (${x.code})`));
        }
      }
    };
    // A dropped connection resumes the same run (README "Safe retries"): the first POST carries
    // an Idempotency-Key (a break before the first event can't start a second run), later
    // ones the id of the last event received.
    const idempotencyKey = randomKey();
    let lastId = null as string | null;
    let ended = false;
    try {
      for (let attempt = 0; !ended; attempt++) {
        try {
          const res = await fetch("/api/v1/research/stream", {
            method: "POST",
            credentials: "same-origin",
            headers: {
              "content-type": "application/json",
              "idempotency-key": idempotencyKey,
              ...(lastId ? { "last-event-id": lastId } : {}),
            },
            body: JSON.stringify({ query: question.value }),
          });
          if (res.status === 204) break;
          if (!res.ok) {
            const env = (await res.json().catch(() => null)) as Envelope | null;
            const err = env?.errors?.[0];
            if (err?.code === "quota_exceeded") {
              const reset = new Date(Date.now() + (Number(res.headers.get("retry-after")) || 0) * 1000);
              status.replaceChildren(
                h(
                  "p",
                  { class: "note" },
                  `You have used this month's research runs. They reset on ${fmtDate(reset.toISOString())}.`,
                ),
              );
            } else failed(err?.message ?? `Request failed (HTTP ${res.status}).`);
            return;
          }
          status.replaceChildren();
          await readEvents(res, (event, data, id) => {
            if (id) lastId = id;
            if (event === "final") ended = true;
            show(event, data as Record<string, unknown>);
          });
          if (!ended) throw new Error("the stream ended before the answer was complete");
        } catch (err) {
          if (attempt >= MAX_RESUMES) {
            failed(`The connection broke: ${(err as Error).message}`);
            return;
          }
          status.replaceChildren(h("p", { class: "muted" }, "The connection broke; reconnecting to the same run…"));
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    } finally {
      ask.disabled = false;
    }
  });
  mount(
    h("h1", {}, "Research"),
    form,
    stages,
    status,
    answer,
    checked,
    sources,
    h("details", {}, h("summary", {}, "Activity"), log),
  );
}
