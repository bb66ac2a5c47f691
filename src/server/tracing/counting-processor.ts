import type { SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace";
import type { Counter } from "../../metrics/registry.ts";

type Sdk = typeof import("@opentelemetry/sdk-trace");

/**
 * The SDK's BatchSpanProcessor, with every span it loses counted in
 * `rq_trace_spans_dropped_total`: over the bounded queue (a collector down or hung for long),
 * or in an export that failed or timed out. The SDK drops these silently; the count is what
 * tells an operator their traces have holes.
 */
export function countingProcessor(
  sdk: Sdk,
  exporter: SpanExporter,
  dropped: Counter,
  limits: { maxQueueSize: number; maxExportBatchSize: number; scheduledDelayMillis: number; timeoutMs: number },
): SpanProcessor {
  // Spans handed to the batch processor that its exporter has not taken yet: the queue it keeps.
  let queued = 0;
  const counting: SpanExporter = {
    export(spans, done) {
      queued -= spans.length;
      exporter.export(spans, (result) => {
        if (result.code !== 0) dropped.inc({ reason: "export_failed" }, spans.length);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new sdk.BatchSpanProcessor({
    exporter: counting,
    maxQueueSize: limits.maxQueueSize,
    maxExportBatchSize: limits.maxExportBatchSize,
    scheduledDelayMillis: limits.scheduledDelayMillis,
    // Past the exporter's own timeout, so a hung collector ends as the exporter's failure (counted).
    exportTimeoutMillis: limits.timeoutMs + 1000,
  });
  return {
    onStart: (span, ctx) => batch.onStart(span, ctx),
    onEnd(span) {
      // Unsampled spans never reach the queue (the batch processor's own rule).
      if ((span.spanContext().traceFlags & 1) === 0) return;
      if (queued >= limits.maxQueueSize) {
        dropped.inc({ reason: "queue_full" });
        return;
      }
      queued++;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
}
