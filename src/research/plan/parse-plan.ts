import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { stripThinking } from "../llm/think-filter.ts";
import type { Plan } from "./heuristic.ts";
import { jsonObjects, parseLoose } from "./json-repair.ts";
import { normalizeLanguage } from "./language.ts";

const PlanSchema = T.Object({
  kind: T.Union([T.Literal("academic"), T.Literal("general"), T.Literal("news"), T.Literal("mixed")]),
  language: T.String({ pattern: "^[a-z]{2,3}$" }),
  queries: T.Array(T.String({ minLength: 1, maxLength: 300 }), { minItems: 1 }),
});

// Words models use for the kinds despite the prompt.
const KIND_ALIASES: Record<string, string> = {
  scholarly: "academic",
  scientific: "academic",
  science: "academic",
  research: "academic",
  literature: "academic",
  current_events: "news",
  "current events": "news",
  recent: "news",
  both: "mixed",
  web: "general",
  other: "general",
};

/** Coerces near-misses into the schema's shape; Value.Check has the last word. */
function normalize(data: unknown, fallbackLanguage: string): unknown {
  if (!data || typeof data !== "object" || Array.isArray(data)) return data;
  const d = { ...(data as Record<string, unknown>) };
  if (typeof d.kind === "string") {
    const k = d.kind.trim().toLowerCase();
    d.kind = KIND_ALIASES[k] ?? k;
  }
  d.language = (typeof d.language === "string" && normalizeLanguage(d.language)) || fallbackLanguage;
  if (typeof d.queries === "string") d.queries = [d.queries];
  if (Array.isArray(d.queries)) {
    const qs = d.queries
      .filter((q): q is string => typeof q === "string")
      .map((q) => q.replace(/\s+/g, " ").trim().slice(0, 300))
      .filter(Boolean);
    const seen = new Set<string>();
    d.queries = qs.filter((q) => !seen.has(q.toLowerCase()) && seen.add(q.toLowerCase())).slice(0, 4);
  }
  return d;
}

/**
 * Reads a plan out of model output: reasoning removed, each {...} candidate tried in
 * turn (with light repair), the first one of the right shape wins. A missing or odd
 * language becomes `fallbackLanguage`. Null when nothing usable is there.
 */
export function parsePlan(output: string, fallbackLanguage = "en"): Plan | null {
  for (const candidate of jsonObjects(stripThinking(output))) {
    const data = normalize(parseLoose(candidate), fallbackLanguage);
    if (Value.Check(PlanSchema, data)) return { kind: data.kind, language: data.language, queries: data.queries };
  }
  return null;
}
