import type { Config } from "../../config/schema.ts";
import type { Counter } from "../../metrics/registry.ts";
import { installTracing } from "../../util/tracing/spans.ts";
import { countingProcessor } from "./counting-processor.ts";

/** The collector's address of the traces, or null when none is configured (then no tracing at all). */
function tracesUrl(cfg: Pick<Config, "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT">) {
  if (cfg.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return cfg.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (cfg.OTEL_EXPORTER_OTLP_ENDPOINT) return `${cfg.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return null;
}

/** `k=v,k2=v2` (values URL-encoded), as the OpenTelemetry variables write headers. */
function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at > 0) out[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return out;
}

/** Bounds on what waits for the collector: a collector down or hung costs at most this queue, then spans are dropped. */
const EXPORT_LIMITS = {
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
  scheduledDelayMillis: 1000,
  timeoutMs: 5000,
};

/**
 * Starts exporting traces when a collector is configured: the SDK is imported only then, so a
 * server without one loads none of it (docs/decisions/0200-traces-over-otlp-loaded-only-when-configured.md).
 * Returns the stop that flushes what is queued (bounded by the export timeout), or null.
 */
export async function startTracing(
  cfg: Config,
  dropped: Counter,
  version = "unknown",
): Promise<(() => Promise<void>) | null> {
  const url = tracesUrl(cfg);
  if (!url) return null;
  const [sdk, core, resources, base, transformer] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/otlp-exporter-base/node-http"),
    import("@opentelemetry/otlp-transformer"),
  ]);
  const { OTLPExporterBase } = await import("@opentelemetry/otlp-exporter-base");
  const json = cfg.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json";
  const options = base.convertLegacyHttpOptions(
    { url, headers: parseOtlpHeaders(cfg.OTEL_EXPORTER_OTLP_HEADERS), timeoutMillis: EXPORT_LIMITS.timeoutMs },
    "TRACES",
    "v1/traces",
    { "Content-Type": json ? "application/json" : "application/x-protobuf" },
  );
  const exporter = new OTLPExporterBase(
    base.createOtlpHttpExportDelegate(
      options,
      json ? transformer.JsonTraceSerializer : transformer.ProtobufTraceSerializer,
      "otlp_http_span_exporter",
      transformer.TraceExporterMetricsHelper,
      undefined,
    ),
  );
  const ratio = new sdk.TraceIdRatioBasedSampler(cfg.OTEL_TRACES_SAMPLER_ARG);
  const root = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
  };
  const name = cfg.OTEL_TRACES_SAMPLER;
  const sampler = name.startsWith("parentbased_")
    ? new sdk.ParentBasedSampler({ root: root[name.slice("parentbased_".length) as keyof typeof root] })
    : root[name as keyof typeof root];
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ "service.name": cfg.OTEL_SERVICE_NAME, "service.version": version }),
    sampler,
    spanProcessors: [countingProcessor(sdk, exporter, dropped, EXPORT_LIMITS)],
  });
  const propagator = new core.W3CTraceContextPropagator();
  const { ROOT_CONTEXT } = await import("@opentelemetry/api");
  installTracing({
    tracer: provider.getTracer("research-query", version),
    extract: (headers) =>
      propagator.extract(ROOT_CONTEXT, headers, {
        get: (h, key) => h.get(key) ?? undefined,
        keys: (h) => [...h.keys()],
      }),
  });
  return async () => {
    installTracing(null);
    await provider.shutdown().catch(() => {});
  };
}
