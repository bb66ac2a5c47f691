import { expect } from "bun:test";

// Bun's toMatchObject writes asymmetric matchers into the received object, so the
// envelope's shape is checked on a copy.
export function expectEnvelope(env: unknown, fields: Record<string, unknown>): void {
  const e = structuredClone(env) as Record<string, any>;
  expect(e.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(Array.isArray(e.sources) && Array.isArray(e.errors)).toBe(true);
  expect(typeof e.usage.latency_ms + typeof e.usage.tokens_in + typeof e.usage.tokens_out).toBe("numbernumbernumber");
  expect(e).toMatchObject(fields);
}
