import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { Engine } from "../../src/research/types.ts";
import { cuttingProxy } from "../helpers/cutting-proxy.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { query, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { launchChromium, canRun as run } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

/** An engine whose answer tries to smuggle HTML and a javascript: link into the page. */
const engine: Engine = {
  async run(_q, ctx) {
    const src = {
      id: "S1",
      title: "Base editing explained",
      url: "https://example.org/base-editing",
      type: "web" as const,
      provider: "searxng",
      snippet: "…",
    };
    for (const stage of ["planning", "searching", "reading", "writing"] as const)
      ctx.emit({ type: "progress", stage, message: `${stage}…` });
    ctx.emit({ type: "source", source: src });
    const answer =
      'Base editing changes **one letter** of DNA [S1].\n\n<img src=x onerror="window.pwned=1"> [bad](javascript:window.pwned=2)';
    for (const part of answer.match(/.{1,12}/gs) ?? []) {
      ctx.emit({ type: "answer", delta: part });
      await Bun.sleep(5);
    }
    return { answer, sources: [src], writer: "extractive", tokens_in: 0, tokens_out: 0 };
  },
};

let srv: TestServer, browser: Browser, page: Page;
beforeAll(async () => {
  if (!run) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = startTestServer({ engine, env: { PLAN_RUNS_FREE: "5" } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
}, 60_000);
afterAll(async () => {
  if (!run) return;
  await browser?.close();
  await srv?.stop(100);
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe.if(run)("web app in Chromium", () => {
  test("sign up, create a key and read it once, call the API with it, see usage and the timeline, revoke, research", async () => {
    await page.goto(`${srv.url}/signup`);
    await page.getByLabel("Email").fill("web@example.com");
    await page.getByLabel("Password").fill("a long password");
    await shot("signup");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Research" }).waitFor();

    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name (optional)").fill("e2e");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("#new-key").textContent())!.trim();
    expect(key).toMatch(/^rq-[A-Za-z0-9_-]{32}$/);
    await expect(page.getByText("cannot be shown again").count()).resolves.toBe(1);
    await shot("keys");
    await page.reload();
    expect(await page.content()).not.toContain(key);

    const res = await query(srv.url, key, { query: "What is base editing?" });
    expect(res.status).toBe(200);
    const { request_id } = (await res.json()) as { request_id: string };

    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByText("1 of 5").waitFor();
    await shot("usage");
    await page.locator(`a[href="/runs/${request_id}"]`).click();
    await page.getByRole("heading", { name: "Run timeline" }).waitFor();
    await page.getByText("What is base editing?").first().waitFor();
    expect(await page.locator("svg.timeline").count()).toBe(1);
    await shot("timeline");

    await page.getByRole("link", { name: "API keys" }).click();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: /Revoke key/ }).click();
    await page.getByText("revoked", { exact: true }).waitFor();
    expect((await query(srv.url, key, { query: "again" })).status).toBe(403);

    await page.getByRole("link", { name: "Research", exact: true }).click();
    await page.getByLabel("Your question").fill("How does base editing work?");
    await page.getByRole("button", { name: "Ask" }).click();
    await page.locator("#src-S1").waitFor();
    const answer = page.locator(".answer");
    expect(await answer.locator("strong").textContent()).toBe("one letter");
    expect(await answer.locator('a.cite[href="#src-S1"]').count()).toBe(1);
    expect(await answer.locator("img").count()).toBe(0);
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("#src-S1 a").getAttribute("rel")).toBe("noopener noreferrer");
    await shot("research");
  });

  test("a used-up allowance shows the reset date; wrong password and sign-out are clear", async () => {
    for (let i = 0; i < 4; i++)
      await page.evaluate(() =>
        fetch("/api/v1/research", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "fill" }),
        }),
      );
    await page.getByLabel("Your question").fill("One more?");
    await page.getByRole("button", { name: "Ask" }).click();
    await page.getByText(/reset on/).waitFor();
    await shot("quota");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill("web@example.com");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Wrong email or password.").waitFor();
    await page.setViewportSize({ width: 390, height: 800 });
    await shot("signin-phone");
  });

  test("a connection dropped mid-answer resumes the same run: the whole answer, one run used", async () => {
    const deltas = ["Solid ", "electrolytes ", "crack ", "under ", "pressure ", "[S1]."];
    const s = startTestServer({ engine: scriptedEngine({ deltas, deltaMs: 150 }) });
    const proxy = await cuttingProxy(s.url);
    const p = await browser.newPage();
    try {
      await p.goto(`${proxy.url}/signup`);
      await p.getByLabel("Email").fill("resume@example.com");
      await p.getByLabel("Password").fill("a long password");
      await p.getByRole("button", { name: "Create account" }).click();
      await p.getByLabel("Your question").fill("What limits solid-state batteries?");
      await p.getByRole("button", { name: "Ask" }).click();
      await p.locator(".answer").getByText("Solid", { exact: false }).waitFor();
      proxy.cut();
      await p.getByText(/Done in/).waitFor();
      expect(await p.locator(".answer").textContent()).toBe("Solid electrolytes crack under pressure [S1].");
      const runs = s.sql.query("SELECT status FROM runs").all() as { status: string }[];
      expect(runs).toEqual([{ status: "ok" }]);
      expect(proxy.connections).toBeGreaterThan(1);
    } finally {
      await p.close();
      await proxy.close();
      await s.stop(100);
    }
  });
});
