import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";

export type { Span } from "@opentelemetry/api";

/**
 * The process's tracing, or none: set once by `serve` when a collector is configured
 * (src/server/tracing/otlp-setup.ts). Unset, every helper here returns undefined before it
 * builds anything, so a server without traces creates no span at all
 * (docs/decisions/0200-traces-over-otlp-loaded-only-when-configured.md).
 */
interface Tracing {
  tracer: Tracer;
  /** The context an incoming W3C `traceparent` names, or the root. */
  extract(headers: Headers): Context;
}

let active: Tracing | null = null;

export function installTracing(t: Tracing | null): void {
  active = t;
}

export const tracingOn = (): boolean => active !== null;

/**
 * A span under `parent` (none: a root), passed explicitly, never through async context: runs
 * hop through turns, workers and timers where nothing carries it.
 */
export function startSpan(
  name: string,
  parent: Span | undefined,
  attributes?: Attributes,
  o: { kind?: SpanKind; startTime?: number } = {},
): Span | undefined {
  if (!active) return undefined;
  const ctx = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  return active.tracer.startSpan(name, { attributes, kind: o.kind ?? SpanKind.INTERNAL, startTime: o.startTime }, ctx);
}

/** The server span of one request, its parent the request's `traceparent` when it has one. */
export function startServerSpan(name: string, headers: Headers, attributes: Attributes): Span | undefined {
  if (!active) return undefined;
  return active.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, active.extract(headers));
}

/** A span that started `ms` ago and ends now (a provider call or page read reported when it ended). */
export function pastSpan(name: string, parent: Span | undefined, ms: number, attributes: Attributes): Span | undefined {
  if (!active || !parent) return undefined;
  return startSpan(name, parent, attributes, { startTime: performance.timeOrigin + performance.now() - ms });
}

/**
 * Ends `span`; with `code`, it failed with that error code (ours: the ERRORS table's). Only the
 * code: a message may quote an upstream, or the question it was asked.
 */
export function endSpan(span: Span | undefined, code?: string): void {
  if (!span) return;
  if (code) {
    span.setAttributes({ "error.type": code, "research.error.code": code });
    span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }
  span.end();
}

/** The span a request's handling runs under (set by the server for the routes below it). */
const requestSpans = new WeakMap<Request, Span>();

export const setRequestSpan = (request: Request, span: Span | undefined): void => {
  if (span) requestSpans.set(request, span);
};
export const requestSpan = (request: Request): Span | undefined => requestSpans.get(request);
