import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { Counter } from "../../src/metrics/registry.ts";
import { startTracing } from "../../src/server/tracing/otlp-setup.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../helpers/otlp-receiver.ts";
import { startTestServer, type TestServer, testConfig } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { ask, signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE, phoneProblems } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/**
 * README "Traces": a run asked in the web app, with traces on, shows its trace id on its
 * Console timeline, the id the collector received its spans under; at 1280 and 390 px, the
 * 32 digits wrap inside the phone's width.
 */

let srv: TestServer, browser: Browser, receiver: OtlpReceiver, stopTracing: (() => Promise<void>) | null;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  receiver = startOtlpReceiver();
  stopTracing = await startTracing(
    testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    new Counter("dropped", "spans dropped"),
  );
  srv = startTestServer();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
  await stopTracing?.();
  receiver?.stop();
});

describe("a run's trace id on its Console timeline", () => {
  for (const [size, options] of [
    ["1280", { viewport: { width: 1280, height: 900 } }],
    ["390", PHONE],
  ] as const)
    test.skipIf(!canRun)(`at ${size} px: the id the collector has the run's spans under`, async () => {
      const s = await signedUp(browser, srv.url, `trace-${size}@example.com`, options);
      try {
        await ask(s.page, "What is base editing?");
        await s.page.goto(`${srv.url}/usage`);
        await s.page.locator("a[href^='/runs/']").first().click();
        await s.page.getByRole("heading", { name: "Run timeline" }).waitFor();
        const shown = (await s.page.locator(".trace-id code").textContent())!;
        expect(shown).toMatch(/^[0-9a-f]{32}$/);
        const runId = s.page.url().split("/runs/")[1]!;
        const spans = await receiver.until((all) =>
          all.some((x) => x.name === "research.run" && x.attributes["research.request_id"] === runId),
        );
        const run = spans.find((x) => x.name === "research.run" && x.attributes["research.request_id"] === runId)!;
        expect(shown).toBe(run.traceId);
        // The web app's research call is the run's parent: one trace from the click.
        expect(spans.some((x) => x.kind === 2 && x.spanId === run.parentSpanId)).toBe(true);
        if (size === "390") expect(await phoneProblems(s.page)).toEqual([]);
        await s.page.screenshot({ path: join(SHOTS, `trace-id-${size}.png`), fullPage: true });
        expect(s.seen).toEqual([]);
      } finally {
        await s.ctx.close();
      }
    });
});
