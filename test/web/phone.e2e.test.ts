import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SIGNIN_ERROR_CODES } from "../../src/contract/auth.ts";
import { MAX_QUERY_CHARS } from "../../src/contract/query.ts";
import { MAX_QUERY_CHARS as WEB_MAX } from "../../src/web/client/char-limit.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { query, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { canRun, launchChromium, PHONE, phoneProblems, watchConsole } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");
// Long unbroken words are what push a phone page sideways: an email, a URL in the answer.
const EMAIL = "someone.with.a.rather.long.address@research-department.example.com";
const LONG_URL = "https://example.org/a/very/long/path/without/any/break/points/in/it/at/all/index.html";

let srv: TestServer, browser: Browser, ctx: BrowserContext, page: Page, seen: string[];
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = startTestServer({
    engine: scriptedEngine({ deltas: ["Solid electrolytes crack ", `(see ${LONG_URL}) [S1].`] }),
    env: {
      PLAN_RUNS_FREE: "10",
    },
  });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});
afterEach(() => ctx?.close());

async function phone(): Promise<void> {
  ctx = await browser.newContext(PHONE);
  page = await ctx.newPage();
  seen = watchConsole(page);
}

/** The page as a phone user has it: no console error so far, nothing off screen. */
async function check(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
  expect([name, seen.splice(0), await phoneProblems(page)]).toEqual([name, [], []]);
}

async function signUp(email: string): Promise<void> {
  await page.goto(`${srv.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).tap();
  await page.getByRole("heading", { name: "Research" }).waitFor();
}

describe.if(canRun)("the web app on a phone (390×844)", () => {
  test("signed out: every page loads without a console error (no 401 probe, no favicon 404) and fits", async () => {
    await phone();
    await page.goto(`${srv.url}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await check("signin");
    await page.goto(`${srv.url}/signup`);
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await check("signup");
    for (const path of ["/keys", "/usage", "/research", "/runs/00000000-0000-0000-0000-000000000000"]) {
      await page.goto(srv.url + path);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await check(`signed-out${path.replace(/\//g, "-")}`);
    }
  });

  test("signed in: research, a key, usage, a finished run; Revoke is on screen and works by touch", async () => {
    await phone();
    await signUp(EMAIL);
    await check("research");
    await page.getByLabel("Your question").fill(`What limits solid-state batteries? ${LONG_URL}`);
    await page.getByRole("button", { name: "Ask" }).tap();
    await page.getByText(/Done in/).waitFor();
    await check("research-answer");

    await page.getByRole("link", { name: "API keys" }).tap();
    await page.getByLabel("Name (optional)").fill("phone");
    await page.getByRole("button", { name: "Create key" }).tap();
    const key = (await page.locator("#new-key").textContent())!.trim();
    expect((await query(srv.url, key, { query: "From the API" })).status).toBe(200);
    await page.reload();
    await page.getByRole("heading", { name: "Your keys" }).waitFor();
    await check("keys");
    const revoke = page.getByRole("button", { name: "Revoke key phone" });
    await revoke.scrollIntoViewIfNeeded();
    expect(await revoke.isVisible()).toBe(true);

    await page.getByRole("link", { name: "Usage" }).tap();
    await page.getByText("2 of 10").waitFor();
    await check("usage");
    await page.locator("a[href^='/runs/']").first().tap();
    await page.getByRole("heading", { name: "Run timeline" }).waitFor();
    await check("timeline");

    await page.getByRole("link", { name: "API keys" }).tap();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Revoke key phone" }).tap();
    await page.getByText("revoked", { exact: true }).waitFor();
    expect((await query(srv.url, key, { query: "again" })).status).toBe(403);
    await check("keys-revoked");

    await page.getByRole("button", { name: "Sign out" }).tap();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await check("signed-out-again");
  });

  test("the question box counts code points as the API does: 2,000 emoji go, 2,001 are refused", async () => {
    expect(WEB_MAX).toBe(MAX_QUERY_CHARS);
    await phone();
    await signUp("emoji@example.com");
    const runs: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/research")) runs.push(r.postData() ?? "");
    });
    const box = page.getByLabel("Your question");
    const counter = page.locator(".counter");
    await box.fill("😀".repeat(2001));
    expect(await counter.allTextContents()).toEqual(["2,001 / 2,000 characters: 1 too many"]);
    await page.getByRole("button", { name: "Ask" }).tap();
    expect(await box.evaluate((t: HTMLTextAreaElement) => t.validity.valid)).toBe(false);
    expect(runs).toEqual([]);

    await box.fill("😀".repeat(2000));
    expect(await counter.allTextContents()).toEqual(["2,000 / 2,000 characters"]);
    await page.getByRole("button", { name: "Ask" }).tap();
    await page.getByText(/Done in/).waitFor();
    expect(runs.length).toBe(1);
    const stored = srv.sql.query("SELECT query FROM runs ORDER BY created_at DESC LIMIT 1").get() as { query: string };
    expect([...stored.query].length).toBe(2000);
    expect(stored.query.length).toBe(4000);
    await check("research-emoji");
    // Recent calls shorten a query to 80 characters, counted the same way: 80 emoji, none cut in half.
    await page.getByRole("link", { name: "Usage" }).tap();
    await page.getByRole("heading", { name: "Recent calls" }).waitFor();
    expect(await page.locator("td[data-label='Query']").allTextContents()).toEqual([`${"😀".repeat(80)}…`]);
  });

  test("/signin shows only the app's own text for a known ?error= code, never ?message= text", async () => {
    await phone();
    const lure = "Your account is locked. Call +1 555 0100 to unlock it.";
    const visit = async (search: string) => {
      await page.goto(`${srv.url}/signin${search}`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await page.locator("main").textContent()).not.toContain("locked");
      return page.locator("p.alert").allTextContents();
    };
    const m = `message=${encodeURIComponent(lure)}`;
    expect(await visit(`?error=access_denied&${m}`)).toEqual(["Sign-in was cancelled at the identity provider."]);
    for (const code of SIGNIN_ERROR_CODES) expect((await visit(`?error=${code}&${m}`)).length).toBe(1);
    expect(await visit(`?error=account_locked&${m}`)).toEqual([]);
    expect(await visit(`?error=${encodeURIComponent(lure)}`)).toEqual([]);
    expect(await visit(`?${m}`)).toEqual([]);
    await check("signin-error");
  });
});
