import { afterAll, describe, expect, test } from "bun:test";
import { publicUrl } from "../../src/config/load.ts";
import { documentPath } from "../../src/http/route.ts";
import { apiDocument, apiPaths } from "../../src/server/api-document.ts";
import { mainApp } from "../../src/server/app.ts";
import { declaredRoutes } from "../../src/server/routes.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer } from "../helpers/server.ts";

// Each route is declared once, with its OpenAPI operation (src/http/route.ts); Elysia's
// registration and the document are both fed from that one table, so a route and its
// operation cannot say different things.

const srv = startTestServer({ engine: scriptedEngine() });
afterAll(() => srv.stop(100));

const paths = apiPaths();
const routes = mainApp(srv.deps).routes.map((r) => ({
  method: r.method.toLowerCase(),
  path: documentPath(r.path),
  detail: r.hooks?.detail as unknown,
}));

describe("OpenAPI operations beside their routes", () => {
  test("every route carries, as its detail, the document's operation for its method and path", () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) {
      const op = paths[r.path]?.[r.method];
      expect({ route: `${r.method} ${r.path}`, detail: r.detail }).toEqual({
        route: `${r.method} ${r.path}`,
        detail: op,
      });
    }
  });

  test("every operation of the document has its route (the key routes are Bun's native routes)", () => {
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const native = declaredRoutes()
      .filter((r) => r.auth === "key")
      .map((r) => `${r.method.toLowerCase()} ${documentPath(r.path)}`);
    const documented = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(documented.filter((o) => !served.has(o)).sort()).toEqual(native.sort());
    expect(native.sort()).toEqual(["post /api/query", "post /api/query/stream"]);
  });

  test("/openapi.json serves the assembled document, its operations as the routes declared them", async () => {
    const res = await fetch(`${srv.url}/openapi.json`);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(apiDocument(publicUrl(srv.deps.config)))));
  });
});
