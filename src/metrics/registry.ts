import { family, labelText, sample } from "./exposition.ts";
import { processSeries } from "./process-series.ts";
import { threadSeries } from "./thread-series.ts";

/** Minimal Prometheus text-format metrics: labelled counters, one histogram, gauges by callback. */
type Labels = Record<string, string>;

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = labelText(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  /** Same as inc with {route, status}, without building a label object (hot path). */
  incRoute(route: string, status: number): void {
    const k = `route="${route}",status="${status}"`;
    this.values.set(k, (this.values.get(k) ?? 0) + 1);
  }
  render(): string {
    return family(
      this.name,
      "counter",
      this.help,
      [...this.values].map(([k, v]) => sample(this.name, k, v)),
    );
  }
}

export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {
    this.counts = buckets.map(() => 0);
  }
  observe(v: number): void {
    this.sum += v;
    this.count++;
    this.buckets.forEach((b, i) => {
      if (v <= b) this.counts[i]!++;
    });
  }
  render(): string {
    const buckets = this.buckets.map((b, i) => `${this.name}_bucket{le="${b}"} ${this.counts[i]}`);
    return family(this.name, "histogram", this.help, [
      ...buckets,
      `${this.name}_bucket{le="+Inf"} ${this.count}`,
      `${this.name}_sum ${this.sum}`,
      `${this.name}_count ${this.count}`,
    ]);
  }
}

/** A gauge this process moves up and down (uploads being received). */
export class Gauge {
  private value = 0;
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  add(by: number): void {
    this.value += by;
  }
  render(): string {
    return family(this.name, "gauge", this.help, [sample(this.name, "", this.value)]);
  }
}

/** Uploaded files by status, every instance's (the store's `uploads.statusCounts`). */
export type UploadCounts = Record<"queued" | "indexing" | "failed", number>;

/**
 * The service's metrics (requests, runs, latency, upstream calls, runs in flight, uploads and
 * their imports), and at each scrape the process's own and its threads' (process-series.ts,
 * thread-series.ts).
 */
export class Metrics {
  readonly requests = new Counter("rq_http_requests_total", "HTTP requests by route and status");
  readonly runs = new Counter("rq_runs_total", "Finished research runs by status and first error code");
  readonly runSeconds = new Histogram(
    "rq_run_duration_seconds",
    "Wall time of research runs",
    [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 240],
  );
  readonly upstream = new Counter(
    "rq_upstream_calls_total",
    "Calls to search providers, pages and the LLM by provider and outcome",
  );
  readonly parses = new Counter(
    "rq_document_parses_total",
    "Pages and PDFs turned into text, by where (worker thread or inline) and outcome",
  );
  readonly uploadsReceiving = new Gauge("rq_uploads_in_flight", "Upload requests whose files are being received now");
  readonly uploadBytes = new Counter("rq_upload_bytes_total", "Bytes of uploaded files received and queued for import");
  readonly uploadFiles = new Counter("rq_upload_files_total", "Uploaded files received and queued for import");
  readonly imports = new Counter(
    "rq_imports_total",
    "Uploaded files this instance finished importing, by outcome (imported, failed, removed meanwhile)",
  );
  readonly importedDocuments = new Counter(
    "rq_imported_documents_total",
    "Documents stored by this instance's imports of uploaded files",
  );
  readonly traceSpansDropped = new Counter(
    "rq_trace_spans_dropped_total",
    "Trace spans never delivered to the collector: the export queue full, or an export that failed or timed out",
  );
  constructor(
    private readonly inFlight: () => number,
    /** The build's version (`research_query_build_info`): `serve` gives package.json's. */
    private readonly version = "unknown",
  ) {
    // Label-less counters start at 0, so a scrape before the first upload sees the series.
    for (const c of [this.uploadBytes, this.uploadFiles, this.importedDocuments]) c.inc({}, 0);
  }
  /** `uploads`: the files on their way in by status (null: the database did not answer; left out). */
  render(uploads: UploadCounts | null = null): string {
    const gauge = family("rq_runs_in_flight", "gauge", "Research runs now running", [
      sample("rq_runs_in_flight", "", this.inFlight()),
    ]);
    const files = uploads
      ? family(
          "rq_uploads",
          "gauge",
          "Uploaded files not yet imported (queued, indexing) or failed, on every instance",
          Object.entries(uploads).map(([status, n]) => sample("rq_uploads", labelText({ status }), n)),
        )
      : null;
    return (
      [
        this.requests.render(),
        this.runs.render(),
        this.runSeconds.render(),
        this.upstream.render(),
        this.parses.render(),
        gauge,
        this.uploadsReceiving.render(),
        this.uploadBytes.render(),
        this.uploadFiles.render(),
        this.imports.render(),
        this.importedDocuments.render(),
        this.traceSpansDropped.render(),
        ...(files ? [files] : []),
        threadSeries(),
        processSeries(this.version),
      ].join("\n") + "\n"
    );
  }
}

/**
 * Labels requests by route pattern, never by raw path: every distinct unknown path used to be
 * a new label (20,000 probes grew /metrics to 1.78 MB and memory by 36 MB). `patterns` are the
 * API's paths as the OpenAPI document writes them (`/api/console/keys/{key_id}`); anything
 * else is "other".
 */
export function routeLabeler(patterns: readonly string[]): (path: string) => string {
  const exact = new Set(patterns.filter((p) => !p.includes("{")));
  const templated = patterns
    .filter((p) => p.includes("{"))
    .map((p) => ({ label: p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));
  return (path) => {
    if (exact.has(path)) return path;
    for (const t of templated) if (t.re.test(path)) return t.label;
    return "other";
  };
}
