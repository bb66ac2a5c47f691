import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Kind, OptionalKind, type TSchema } from "@sinclair/typebox";
import { NAMED_SCHEMAS } from "../../src/contract/openapi-schemas.ts";
import { apiDocument } from "../../src/server/api-document.ts";

const doc = apiDocument("http://127.0.0.1:3000");
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ path, method, op })),
);

/**
 * Every path, method and response status of the hand-written document it replaces
 * (src/http/openapi.ts at 41765d2), and the security of each operation.
 */
const LEGACY: [string, string, number[], "key" | "session" | "optional-session" | null][] = [
  ["/api/query", "post", [200, 400, 401, 403, 429], "key"],
  ["/api/query/stream", "post", [200, 400, 429], "key"],
  ["/api/console/keys", "get", [200, 401, 403], "session"],
  ["/api/console/keys", "post", [201, 400, 401, 403], "session"],
  ["/api/console/keys/{key_id}", "delete", [200, 401, 403, 404], "session"],
  ["/api/console/usage", "get", [200, 401, 403], "session"],
  ["/api/console/runs/{request_id}", "get", [200, 401, 403, 404], "session"],
  ["/api/v1/auth/signup", "post", [201, 400, 409], null],
  ["/api/v1/auth/login", "post", [200, 400, 401, 429], null],
  ["/api/v1/auth/logout", "post", [204], "optional-session"],
  ["/api/v1/me", "get", [200, 401, 403], "session"],
  ["/api/v1/auth/providers", "get", [200], null],
  ["/api/v1/auth/oidc/start", "get", [302, 404], null],
  ["/api/v1/auth/oidc/callback", "get", [302], null],
  ["/api/v1/research", "post", [200, 400, 401, 403, 429], "session"],
  ["/api/v1/research/stream", "post", [200, 400, 429], "session"],
  ["/healthz", "get", [200], null],
];

/** Every value under `key` anywhere in `v`, with its JSON pointer. */
function collect(v: unknown, key: string, at = "#"): { at: string; value: unknown }[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => collect(x, key, `${at}/${i}`));
  if (typeof v !== "object" || v === null) return [];
  return Object.entries(v).flatMap(([k, x]) => [
    ...(k === key ? [{ at, value: x }] : []),
    ...collect(x, key, `${at}/${k}`),
  ]);
}
const resolve = (pointer: string): unknown =>
  pointer
    .slice(2)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, p) => (node as Record<string, unknown> | undefined)?.[p], doc);

describe("the generated OpenAPI document", () => {
  test("validates as OpenAPI 3.1", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const res = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
  });

  test("every operation has a unique camelCase operationId", () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "query",
        "queryStream",
        "listKeys",
        "createKey",
        "revokeKey",
        "getUsage",
        "getRunTimeline",
        "signup",
        "login",
        "logout",
        "me",
        "authProviders",
        "oidcStart",
        "oidcCallback",
        "research",
        "researchStream",
        "health",
      ]),
    );
  });

  test("every $ref resolves", () => {
    const refs = collect(doc, "$ref");
    expect(refs.length).toBeGreaterThan(50);
    for (const r of refs) {
      expect(typeof r.value).toBe("string");
      expect([r.at, resolve(r.value as string) !== undefined]).toEqual([r.at, true]);
    }
  });

  test("every path, method, response and security of the hand-written document is still there", () => {
    for (const [path, method, statuses, auth] of LEGACY) {
      const op = doc.paths[path]?.[method];
      expect([path, method, op !== undefined]).toEqual([path, method, true]);
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(statuses.map(String)));
      const schemes = op!.security.map((s) => Object.keys(s).join("+") || "anonymous").sort();
      expect([path, method, schemes]).toEqual([
        path,
        method,
        { key: ["apiKey", "bearer"], session: ["session"], "optional-session": ["anonymous", "session"], none: [] }[
          auth ?? "none"
        ],
      ]);
    }
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: "http", scheme: "bearer", description: "API key rq-…" },
      apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
      session: { type: "apiKey", in: "cookie", name: "auth_token" },
    });
  });

  test("named components refer to each other", () => {
    const s = doc.components.schemas as Record<string, any>;
    for (const name of [
      "Envelope",
      "Source",
      "Evidence",
      "Verification",
      "ErrorItem",
      "ErrorBody",
      "QueryBody",
      "KeyRecord",
      "KeyList",
      "CreatedKey",
      "CreateKeyBody",
      "RevokedKey",
      "Usage",
      "RunTimeline",
      "Credentials",
      "Me",
      "Providers",
      "StreamEvent",
      "Progress",
      "AnswerDelta",
    ])
      expect(s[name]).toBeDefined();
    expect(s.Envelope.properties.sources.items).toEqual({ $ref: "#/components/schemas/Source" });
    expect(s.Envelope.properties.errors.items).toEqual({ $ref: "#/components/schemas/ErrorItem" });
    expect(s.ErrorBody.properties.errors.items).toEqual({ $ref: "#/components/schemas/ErrorItem" });
    expect(s.KeyList.properties.keys.items).toEqual({ $ref: "#/components/schemas/KeyRecord" });
    expect(s.RunTimeline.properties.sources.items).toEqual({ $ref: "#/components/schemas/Source" });
    expect(s.Me.properties.plan).toEqual({ $ref: "#/components/schemas/Plan" });
    // Claims you can check: extra fields, described, on the source, the envelope and the Console's run.
    expect(s.Source.properties.evidence.items).toEqual({ $ref: "#/components/schemas/Evidence" });
    expect(s.Source.required).not.toContain("evidence");
    expect(Object.keys(s.Evidence.properties)).toEqual(["claim", "quote", "support", "verdict", "recited"]);
    expect(s.Evidence.properties.verdict).toEqual({ $ref: "#/components/schemas/Verdict" });
    expect(s.Verdict.anyOf.map((v: any) => v.const)).toEqual(["supported", "partial", "unsupported", "contradicted"]);
    expect(s.Envelope.properties.verification).toEqual({ $ref: "#/components/schemas/Verification" });
    expect(s.Envelope.required).not.toContain("verification");
    const counts = ["claims", "cited", "supported", "unsupported", "coverage", "contradicted", "recited"];
    expect(Object.keys(s.Verification.properties)).toEqual(counts);
    expect(s.Verification.required).not.toContain("contradicted");
    for (const k of counts) expect(s.Verification.properties[k].description).toBeString();
    expect(s.RunTimeline.properties.verification.anyOf).toContainEqual({ $ref: "#/components/schemas/Verification" });
    const data = (s.StreamEvent.anyOf as any[]).map((m) => [m.properties.event.const, m.properties.data.$ref]);
    expect(data).toEqual([
      ["progress", "#/components/schemas/Progress"],
      ["source", "#/components/schemas/Source"],
      ["answer", "#/components/schemas/AnswerDelta"],
      ["error", "#/components/schemas/ErrorItem"],
      ["final", "#/components/schemas/Envelope"],
    ]);
    const q = doc.paths["/api/query"]!.post!;
    expect(q.responses["200"]!.content!["application/json"]).toEqual({
      schema: { $ref: "#/components/schemas/Envelope" },
    });
  });

  test("headers: X-Request-Id on runs, Retry-After on 429 and 503", () => {
    for (const path of ["/api/query", "/api/query/stream", "/api/v1/research", "/api/v1/research/stream"]) {
      const r = doc.paths[path]!.post!.responses;
      expect(r["200"]!.headers?.["X-Request-Id"]).toEqual({ $ref: "#/components/headers/X-Request-Id" });
      expect(r["429"]!.headers?.["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
      expect(r["503"]!.headers?.["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    }
    expect(doc.paths["/api/v1/auth/login"]!.post!.responses["429"]!.headers?.["Retry-After"]).toBeDefined();
  });

  test("the stream response names its events", () => {
    const ok = doc.paths["/api/query/stream"]!.post!.responses["200"]!;
    const media = ok.content!["text/event-stream"] as { "x-sse-events": Record<string, unknown> };
    expect(Object.keys(media["x-sse-events"])).toEqual(["progress", "source", "answer", "error", "final"]);
    for (const e of ["progress", "source", "answer", "error", "final"]) expect(ok.description).toContain(e);
  });

  test("plain JSON Schema: no TypeBox symbols, only OpenAPI keywords", () => {
    const text = JSON.stringify(doc);
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
    expect(collect(doc.components.schemas, "$id")).toEqual([]);
    expect(collect(doc.components.schemas, "$schema")).toEqual([]);
  });

  test("every object schema's required list is its non-optional properties", () => {
    const walk = (s: TSchema, at: string): void => {
      if (s[Kind] === "Object") {
        const props = s.properties as Record<string, TSchema>;
        const want = Object.keys(props).filter((k) => !(OptionalKind in props[k]!));
        expect([at, s.required ?? []]).toEqual([at, want]);
        for (const [k, p] of Object.entries(props)) walk(p, `${at}.${k}`);
      }
      if (s.items) walk(s.items as TSchema, `${at}[]`);
      for (const m of (s.anyOf ?? []) as TSchema[]) walk(m, `${at}|`);
    };
    for (const [name, s] of Object.entries(NAMED_SCHEMAS)) walk(s, name);
    const s = doc.components.schemas as Record<string, any>;
    expect(s.Envelope.required).toEqual(["request_id", "status", "answer", "sources", "usage", "errors"]);
    expect(s.CreatedKey.required).toEqual(["id", "name", "key", "prefix", "status", "created_at"]);
    expect(s.RunTimeline.required).toContain("events");
    expect(s.CreateKeyBody.required).toBeUndefined();
  });
});
