import { join } from "node:path";
import protobuf from "protobufjs";

/** One span as the collector received it: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code: number; message: string };
  service: string;
}

/** An OTLP/HTTP receiver on 127.0.0.1: `POST /v1/traces` in protobuf or JSON, or, `hang`, accepting and never answering. */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The content types of the exports received. */
  contentTypes: string[];
  /** Resolves once the spans received satisfy `pred` (the test's own timeout bounds the wait). */
  until(pred: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  stop(): void;
}

const PROTO = join(import.meta.dir, "../fixtures/otlp-proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(PROTO, target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
const Request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const Response_ = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");

type AnyValue = Record<string, unknown> | undefined;
function value(v: AnyValue): unknown {
  if (!v) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("boolValue" in v) return v.boolValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return v.doubleValue;
  if ("arrayValue" in v) return ((v.arrayValue as { values?: AnyValue[] }).values ?? []).map(value);
  return JSON.stringify(v);
}
const attrs = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, value(a.value)]));

/**
 * The decoded request as plain JSON: protobufjs's toObject with bytes as hex would differ from
 * OTLP/JSON (hex ids there, base64 in protobuf's JSON mapping), so both are read to this one shape.
 */
function spansOf(body: Record<string, unknown>): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (body.resourceSpans as Record<string, unknown>[]) ?? []) {
    const res = attrs((rs.resource as { attributes?: [] })?.attributes);
    for (const ss of (rs.scopeSpans as Record<string, unknown>[]) ?? [])
      for (const s of (ss.spans as Record<string, unknown>[]) ?? [])
        out.push({
          traceId: String(s.traceId ?? ""),
          spanId: String(s.spanId ?? ""),
          parentSpanId: String(s.parentSpanId ?? ""),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          startMs: Number(BigInt(String(s.startTimeUnixNano)) / 1_000_000n),
          endMs: Number(BigInt(String(s.endTimeUnixNano)) / 1_000_000n),
          attributes: attrs(s.attributes as []),
          events: ((s.events as { name: string; attributes?: [] }[]) ?? []).map((e) => ({
            name: e.name,
            attributes: attrs(e.attributes),
          })),
          status: {
            code: Number((s.status as { code?: number })?.code ?? 0),
            message: String((s.status as { message?: string })?.message ?? ""),
          },
          service: String(res["service.name"] ?? ""),
        });
  }
  return out;
}

const hex = (b: unknown) => Buffer.from(b as Uint8Array).toString("hex");

export function startOtlpReceiver(o: { hang?: boolean } = {}): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters: (() => void)[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      if (o.hang) return new Promise<Response>(() => {});
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/traces") return new Response("not found", { status: 404 });
      const type = req.headers.get("content-type") ?? "";
      contentTypes.push(type);
      const bytes = new Uint8Array(await req.arrayBuffer());
      if (type.startsWith("application/x-protobuf")) {
        const msg = Request.decode(bytes);
        const obj = Request.toObject(msg, { longs: String, bytes: Array, enums: Number, defaults: false }) as Record<
          string,
          unknown
        >;
        // Ids arrive as bytes: written as OTLP/JSON writes them, in hex.
        for (const rs of (obj.resourceSpans as { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[]) ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              for (const k of ["traceId", "spanId", "parentSpanId"]) if (s[k]) s[k] = hex(s[k]);
        spans.push(...spansOf(obj));
        for (const w of waiters.splice(0)) w();
        return new Response(Response_.encode(Response_.create({})).finish() as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "application/x-protobuf" },
        });
      }
      // OTLP/JSON: checked against the same definitions (fromObject refuses fields they do not have).
      const json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
      const err = Request.verify(json);
      if (err && !/bytes|Long|integer/.test(err)) return new Response(err, { status: 400 });
      spans.push(...spansOf(json));
      for (const w of waiters.splice(0)) w();
      return Response.json({});
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    spans,
    contentTypes,
    async until(pred) {
      while (!pred(spans)) await new Promise<void>((r) => waiters.push(r));
      return spans;
    },
    stop: () => server.stop(true),
  };
}
