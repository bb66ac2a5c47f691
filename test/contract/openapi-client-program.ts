/**
 * A small client program as its user would write it against the generated types: openapi-fetch
 * over `paths` from openapi-typescript, no casts, no `any`, no non-null assertions. Strict tsc
 * (TypeScript 5) type-checks it beside the generated schema.d.ts; then it runs against the server.
 * It is text, not a module of the project: its imports exist only in the tools folder.
 */
export const CLIENT_PROGRAM = `import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export interface Summary {
  account: { email: string; plan: Schemas["Plan"] };
  key: { prefix: string; isFullKey: boolean; status: Schemas["KeyStatus"]; listed: string[] };
  refusal: { http: number; status: Schemas["Envelope"]["status"]; code: string };
  run: {
    requestId: string;
    header: string | null;
    status: Schemas["Envelope"]["status"];
    answer: string | null;
    sources: string[];
    writer: Schemas["Writer"] | null;
    tokens: number[];
  };
  stream: { first: string; events: string[]; idsInOrder: boolean; header: string | null; answer: string | null };
  usage: {
    plan: Schemas["Plan"];
    allowance: number[];
    calls: number;
    recent: { requestId: string; origin: Schemas["Origin"]; endpoint: string; keyPrefix: string | null }[];
  };
}

/** The stream's messages, read the way an SSE parser reads them: a field per line, a blank line after each message. */
function messages(text: string): Schemas["StreamMessage"][] {
  const out: Schemas["StreamMessage"][] = [];
  for (const block of text.split("\\n\\n")) {
    const field = new Map<string, string>();
    for (const line of block.split("\\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) field.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
    }
    const id = field.get("id");
    const event = field.get("event");
    const data = field.get("data");
    if (id === undefined || event === undefined || data === undefined) continue;
    const parsed: Schemas["StreamEvent"] = JSON.parse('{"event":' + JSON.stringify(event) + ',"data":' + data + "}");
    out.push({ ...parsed, id });
  }
  return out;
}

export async function main(baseUrl: string): Promise<Summary> {
  const client = createClient<paths>({ baseUrl });
  // The Console authenticates by the session cookie that sign-up sets: a jar of one cookie.
  let cookie = "";
  const jar: Middleware = {
    onRequest({ request }) {
      if (cookie) request.headers.set("cookie", cookie);
      return request;
    },
    onResponse({ response }) {
      const set = response.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0] ?? "";
      return response;
    },
  };
  client.use(jar);

  const email = "Typed-" + crypto.randomUUID() + "@Example.com";
  const signup = await client.POST("/api/v1/auth/signup", { body: { email, password: "correct horse battery" } });
  // 201 is the account; 202 (with mail configured) only says a confirmation link was mailed.
  if (!signup.data || !("plan" in signup.data)) throw new Error("signup: HTTP " + signup.response.status);

  const created = await client.POST("/api/console/keys", { body: { name: "typed client" } });
  if (!created.data) throw new Error("create key: HTTP " + created.response.status);
  const key: string = created.data.key;
  const list = await client.GET("/api/console/keys");
  if (!list.data) throw new Error("list keys: HTTP " + list.response.status);

  // A cookie is no credential on the API: this is the typed refusal envelope.
  const refused = await client.POST("/api/query", { body: { query: "What is base editing?" } });
  if (!refused.error) throw new Error("a call without a key was accepted");

  const asked = await client.POST("/api/query", {
    body: { query: "What is base editing?" },
    headers: { Authorization: "Bearer " + key },
  });
  if (!asked.data) throw new Error("query: HTTP " + asked.response.status);
  const envelope: Schemas["Envelope"] = asked.data;

  const streamed = await client.POST("/api/query/stream", {
    body: { query: "What is prime editing?" },
    headers: { Authorization: "Bearer " + key },
    parseAs: "text",
  });
  if (streamed.data === undefined) throw new Error("stream: HTTP " + streamed.response.status);
  const received = messages(streamed.data);
  const last = received[received.length - 1];
  // The discriminant narrows the data: a final message carries the envelope.
  if (last?.event !== "final") throw new Error("the stream did not end with final");
  const final: Schemas["Envelope"] = last.data;

  const usage = await client.GET("/api/console/usage");
  if (!usage.data) throw new Error("usage: HTTP " + usage.response.status);
  const u: Schemas["Usage"] = usage.data;

  return {
    account: { email: signup.data.email, plan: signup.data.plan },
    key: {
      prefix: created.data.prefix,
      isFullKey: key.startsWith(created.data.prefix) && key.length === 35,
      status: created.data.status,
      listed: list.data.keys.map((k) => k.prefix + " " + k.status + " " + String(k.last_used_at)),
    },
    refusal: {
      http: refused.response.status,
      status: refused.error.status,
      code: refused.error.errors.map((e) => e.code).join(","),
    },
    run: {
      requestId: envelope.request_id,
      header: asked.response.headers.get("x-request-id"),
      status: envelope.status,
      answer: envelope.answer,
      sources: envelope.sources.map((s) => s.id + " " + s.url),
      writer: envelope.writer ?? null,
      tokens: [envelope.usage.tokens_in, envelope.usage.tokens_out],
    },
    stream: {
      first: streamed.data.split("\\n")[0] ?? "",
      events: received.map((m) => m.event),
      idsInOrder: received.every((m, i) => m.id === final.request_id + ":" + (i + 1)),
      header: streamed.response.headers.get("x-request-id"),
      answer: final.answer,
    },
    usage: {
      plan: u.plan,
      allowance: [u.allowance.limit, u.allowance.used, u.allowance.remaining],
      calls: u.totals.calls,
      recent: u.recent.map((r) => ({
        requestId: r.request_id,
        origin: r.origin,
        endpoint: r.endpoint,
        keyPrefix: r.key_prefix,
      })),
    },
  };
}
`;

/** Runs the program against a server: `bun run.ts <base url>` prints its summary as JSON. */
export const RUNNER = `import { main } from "./client.ts";
console.log(JSON.stringify(await main(Bun.argv[2] ?? "")));
`;

/** Strict, and checking the generated and installed declarations too (no skipLibCheck). */
export const CLIENT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitReturns: true,
    skipLibCheck: false,
  },
  files: ["client.ts"],
};
