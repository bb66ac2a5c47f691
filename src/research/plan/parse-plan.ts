import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { stripThinking } from "../llm/think-filter.ts";
import type { Plan } from "./heuristic.ts";

const PlanSchema = T.Object({
  kind: T.Union([T.Literal("academic"), T.Literal("general"), T.Literal("news"), T.Literal("mixed")]),
  language: T.String({ minLength: 2, maxLength: 12 }),
  queries: T.Array(T.String({ minLength: 1, maxLength: 400 }), { minItems: 1 }),
});

/** The first balanced {...} in text (models wrap JSON in prose and code fences). */
function firstObject(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0, inStr = false, esc = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inStr) { if (esc) esc = false; else if (c === "\\") esc = true; else if (c === '"') inStr = false; continue; }
    if (c === '"') inStr = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start) + "}".repeat(Math.max(0, depth));
}

/** Mends the usual breakage: single quotes, unquoted keys, trailing commas, smart quotes. */
function repair(s: string): string {
  return s.replace(/[“”]/g, '"').replace(/[‘’]/g, "'")
    .replace(/'([^'"\\]*)'/g, '"$1"')
    .replace(/([{,]\s*)([A-Za-z_][\w]*)\s*:/g, '$1"$2":')
    .replace(/,\s*([}\]])/g, "$1");
}

/** Reads a plan out of model output; null when nothing usable is there. */
export function parsePlan(output: string): Plan | null {
  const text = stripThinking(output);
  const obj = firstObject(text);
  if (!obj) return null;
  let data: unknown;
  try { data = JSON.parse(obj); } catch { try { data = JSON.parse(repair(obj)); } catch { return null; } }
  if (data && typeof data === "object") {
    const d = data as Record<string, unknown>;
    if (typeof d.kind === "string") d.kind = d.kind.toLowerCase().replace("current_events", "news").replace("current events", "news");
    if (typeof d.language === "string") d.language = d.language.toLowerCase().slice(0, 12);
  }
  if (!Value.Check(PlanSchema, data)) return null;
  const queries = [...new Set(data.queries.map((q) => q.replace(/\s+/g, " ").trim()).filter(Boolean))].slice(0, 4);
  return queries.length ? { kind: data.kind, language: data.language, queries } : null;
}
