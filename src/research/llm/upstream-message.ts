import { keepUpstream, upstreamMessage } from "../../util/upstream-text.ts";

/** Longest upstream reason kept in an LLM error (Groq's rate-limit sentences run ~250 characters). */
export const UPSTREAM_MESSAGE_MAX = 300;

/**
 * The reason inside a model server's error body (a string or, from groq-sdk, already
 * parsed), as OpenAI, Groq, vLLM, llama.cpp and FastAPI servers write it, made safe to
 * show: secrets masked (`sent`: our own header values), one line, capped. Null when the
 * body says nothing (empty, an HTML page).
 */
export function upstreamReason(body: unknown, sent: readonly string[] = []): string | null {
  const said = upstreamMessage(body);
  return said ? keepUpstream(said, sent, UPSTREAM_MESSAGE_MAX) || null : null;
}

/** Any text of ours that quotes an upstream (a connection error's message), made as safe. */
export const cleanReason = (text: string, sent: readonly string[] = []): string =>
  keepUpstream(text, sent, UPSTREAM_MESSAGE_MAX);

/** The HTTP status an in-stream error event carries (Groq: status_code beside or inside error). */
export function statusInside(body: unknown): number | undefined {
  const b = body as { status_code?: unknown; status?: unknown; error?: { status_code?: unknown; code?: unknown } };
  const v = b?.status_code ?? b?.error?.status_code ?? b?.status ?? b?.error?.code;
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 400 && n < 600 ? n : undefined;
}
