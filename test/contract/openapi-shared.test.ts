import { describe, expect, test } from "bun:test";
import { apiDocument } from "../../src/server/api-document.ts";

/**
 * What a client generator needs from every operation of the document, checked on all of them:
 * stated security, X-Request-Id on every answer, Retry-After where a wait is asked, the answers a
 * body can get, and a stream described message by message.
 */

const doc = apiDocument("http://127.0.0.1:3000");
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
);
const PUBLIC = [
  "POST /api/v1/auth/signup",
  "POST /api/v1/auth/login",
  "GET /api/v1/auth/providers",
  "GET /api/v1/auth/oidc/start",
  "GET /api/v1/auth/oidc/callback",
  "GET /api/v1/auth/confirm",
  "POST /api/v1/auth/confirm",
  "POST /api/v1/auth/confirm/resend",
  "GET /healthz",
  "GET /openapi.json",
  "GET /docs",
  "GET /metrics",
];

describe("every operation of the OpenAPI document", () => {
  test("states its security; the public ones with an empty list", () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const { at, op } of operations) expect([at, Array.isArray(op.security)]).toEqual([at, true]);
    const open = operations.filter(({ op }) => op.security.length === 0).map(({ at }) => at);
    expect(open.sort()).toEqual([...PUBLIC].sort());
    expect(doc.paths["/api/v1/auth/logout"]!.post!.security).toEqual([{ session: [] }, {}]);
  });

  test("lists /openapi.json itself", () => {
    expect(doc.paths["/openapi.json"]?.get?.operationId).toBe("openApi");
  });

  test("every response carries X-Request-Id; every 429 and 503 carries Retry-After", () => {
    let responses = 0;
    for (const { at, op } of operations)
      for (const [status, r] of Object.entries(op.responses)) {
        responses++;
        const names = Object.keys(r.headers ?? {});
        expect([at, status, names[0]]).toEqual([at, status, "X-Request-Id"]);
        if (status === "429" || status === "503")
          expect([at, status, names.includes("Retry-After")]).toEqual([at, status, true]);
      }
    expect(responses).toBeGreaterThan(100);
  });

  test("every operation may answer 500 and the draining server's 503: internal_error, or /healthz's draining status", () => {
    for (const { at, op } of operations) {
      const r = op.responses["503"];
      const drained = at === "GET /healthz" ? '`status: "draining"`' : "`internal_error`";
      expect([at, r?.description]).toEqual([at, expect.stringContaining(drained)]);
      expect([at, r?.description]).toEqual([at, expect.stringContaining("shutting down")]);
      expect([at, op.responses["500"] !== undefined]).toEqual([at, true]);
    }
  });

  test("every operation that takes a body may answer 400 invalid_request for a body over its limit", () => {
    const withBody = operations.filter(({ op }) => op.requestBody !== undefined);
    expect(withBody.map(({ at }) => at).sort()).toEqual([
      "DELETE /api/v1/me",
      "PATCH /api/console/collections/{name}",
      "POST /api/console/collections",
      "POST /api/console/collections/{name}/documents",
      "POST /api/console/keys",
      "POST /api/query",
      "POST /api/query/stream",
      "POST /api/v1/auth/confirm",
      "POST /api/v1/auth/confirm/resend",
      "POST /api/v1/auth/login",
      "POST /api/v1/auth/signup",
      "POST /api/v1/research",
      "POST /api/v1/research/stream",
    ]);
    for (const { at, op } of withBody) {
      // An upload's limits are its own settings (UPLOAD_MAX_*), answered 413 upload_too_large.
      if (at === "POST /api/console/collections/{name}/documents") {
        expect(op.responses["413"]?.description).toContain("`upload_too_large`");
        continue;
      }
      const d = op.responses["400"]?.description ?? "";
      expect([at, d]).toEqual([at, expect.stringContaining("`invalid_request`")]);
      expect([at, /a body over (4 MB|64 KB)/.test(d)]).toEqual([at, true]);
    }
  });

  test("no `nullable` (not OpenAPI 3.1): a null is a type of its own", () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    const key = doc.components.schemas.KeyRecord as any;
    expect(key.properties.last_used_at.anyOf).toContainEqual({ type: "null" });
  });
});

describe("the stream, message by message", () => {
  test("each message is a StreamMessage: a StreamEvent with its id", () => {
    const s = doc.components.schemas as Record<string, any>;
    expect(s.StreamMessage.allOf[0]).toEqual({ $ref: "#/components/schemas/StreamEvent" });
    expect(s.StreamMessage.allOf[1].required).toEqual(["id"]);
    const id = new RegExp(s.StreamMessage.allOf[1].properties.id.pattern);
    expect(id.test("0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69:12")).toBe(true);
    expect(id.test("0b7e4c1e-8a53-4a5e-9d0f-2f1d3c4b5a69")).toBe(false);
    for (const path of ["/api/query/stream", "/api/v1/research/stream"]) {
      const media = doc.paths[path]!.post!.responses["200"]!.content!["text/event-stream"] as any;
      expect(media.schema.contentSchema.items).toEqual({ $ref: "#/components/schemas/StreamMessage" });
      expect(media.schema.examples[0]).toStartWith("retry: 1000\nid: ");
    }
  });
});
