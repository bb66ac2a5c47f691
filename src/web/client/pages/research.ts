import type { Envelope, Source } from "../../../contract/envelope.ts";
import { fmtDate, h, mount } from "../dom.ts";
import { renderMarkdown } from "../markdown.ts";
import { readEvents } from "../sse.ts";
import { sourcesList } from "./run.ts";

const STAGES = ["planning", "searching", "reading", "writing"] as const;

/** Ask a question; live progress by stage; the answer renders as it streams; then the sources. */
export function researchPage(): void {
  const question = h("textarea", {
    name: "query",
    required: true,
    maxlength: 2000,
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
  const answer = h("div", { class: "answer", "aria-live": "off" });
  const sources = h("section", { "aria-label": "Sources" });
  const form = h("form", { class: "stack" }, h("label", {}, "Your question", question), ask);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    ask.disabled = true;
    let text = "";
    const found: Source[] = [];
    log.replaceChildren();
    answer.replaceChildren();
    sources.replaceChildren();
    status.replaceChildren();
    for (const li of stages.children) li.className = "";
    const setStage = (st: string) => {
      const i = STAGES.indexOf(st as (typeof STAGES)[number]);
      Array.from(stages.children).forEach((li, j) => {
        li.className = j < i ? "done" : j === i ? "active" : "";
      });
    };
    try {
      const res = await fetch("/api/v1/research/stream", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: question.value }),
      });
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
        } else
          status.replaceChildren(h("p", { class: "alert" }, err?.message ?? `Request failed (HTTP ${res.status}).`));
        return;
      }
      await readEvents(res, (event, data) => {
        const d = data as Record<string, unknown>;
        if (event === "progress") {
          setStage(String(d.stage));
          log.append(h("li", {}, String(d.message ?? "")));
          log.scrollTop = log.scrollHeight;
        } else if (event === "source") found.push(d as unknown as Source);
        else if (event === "answer") {
          text += String(d.delta ?? "");
          answer.replaceChildren(renderMarkdown(text));
        } else if (event === "final") {
          const env = d as unknown as Envelope;
          if (env.status === "ok" && env.answer) {
            answer.replaceChildren(renderMarkdown(env.answer));
            sources.replaceChildren(h("h2", {}, "Sources"), sourcesList(env.sources));
            Array.from(stages.children).forEach((li) => {
              li.className = "done";
            });
            status.replaceChildren(
              h("p", { class: "muted" }, `Done in ${(env.usage.latency_ms / 1000).toFixed(1)} s.`),
            );
          } else {
            status.replaceChildren(h("p", { class: "alert" }, ...env.errors.map((x) => `${x.message} (${x.code})`)));
          }
        }
      });
    } catch (err) {
      status.replaceChildren(h("p", { class: "alert" }, `The connection broke: ${(err as Error).message}`));
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
    sources,
    h("details", {}, h("summary", {}, "Activity"), log),
  );
}
