import type { Browser, BrowserContext, Page } from "playwright-core";
import { watchConsole } from "./browser.ts";

/** One person in the web app: their own browser context (cookies), a page, its console errors. */
export interface AppSession {
  ctx: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors so far (a test expects none). */
  seen: string[];
  email: string;
}

/** A new account signed up through the app's own form, in a context of its own. */
export async function signedUp(
  browser: Browser,
  url: string,
  email: string,
  options: Parameters<Browser["newContext"]>[0] = { viewport: { width: 1100, height: 900 } },
): Promise<AppSession> {
  const ctx = await browser.newContext(options);
  const page = await ctx.newPage();
  const seen = watchConsole(page);
  await page.goto(`${url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Research" }).waitFor();
  return { ctx, page, seen, email };
}

/** Asks a question on the Research page and waits for the run to end (answer or error). */
export async function ask(page: Page, question: string): Promise<void> {
  // A click on the page already shown redraws the form under the fill: go there only from elsewhere.
  const research = page.getByRole("link", { name: "Research", exact: true });
  if ((await research.getAttribute("aria-current")) !== "page") {
    await research.click();
    await page.locator('a[href="/research"][aria-current="page"]').waitFor();
  }
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Ask" }).click();
  await page.locator("form button[type=submit]:not([disabled])").waitFor();
}
