import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { LoadedPackages } from "../fixtures/tracing-modules-child.ts";
import { startOtlpReceiver } from "../helpers/otlp-receiver.ts";

const CHILD = join(import.meta.dir, "../fixtures/tracing-modules-child.ts");

/** The OpenTelemetry packages a composed server loads with `env`. */
async function loaded(env: Record<string, string>): Promise<LoadedPackages> {
  const p = Bun.spawn(["bun", CHILD, JSON.stringify(env)], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(p.stdout).text();
  expect(await p.exited).toBe(0);
  return JSON.parse(out.trim().split("\n").at(-1)!) as LoadedPackages;
}

describe('traces cost nothing when no collector is configured (README "Traces")', () => {
  test("no OTEL_* endpoint: the SDK, its exporter and its serializers are never loaded", async () => {
    const packages = await loaded({});
    for (const sdk of ["sdk-trace", "otlp-exporter-base", "otlp-transformer", "resources", "core"])
      expect(packages).not.toContain(sdk);
  });

  test("an endpoint: they are", async () => {
    const r = startOtlpReceiver();
    try {
      const packages = await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: r.url });
      for (const sdk of ["sdk-trace", "otlp-exporter-base", "otlp-transformer"]) expect(packages).toContain(sdk);
    } finally {
      r.stop();
    }
  });
});
