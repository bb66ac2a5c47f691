import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { signedUp } from "./app-session.ts";
import { canRun, launchChromium, PHONE, phoneProblems } from "./browser.ts";

useLongTimeout();
const SHOTS = join(import.meta.dir, "screenshots");

let srv: TestServer, browser: Browser;
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = startTestServer({ engine: scriptedEngine() });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
});

const SIZES = [
  ["desktop", { viewport: { width: 1280, height: 900 }, acceptDownloads: true }],
  ["phone", { ...PHONE, acceptDownloads: true }],
] as const;

describe.if(canRun)("Settings: take your data, delete your account", () => {
  for (const [size, options] of SIZES)
    test(`${size}: the export downloads as JSON; deletion asks for the address and the password, then signs out`, async () => {
      const email = `leaver-${size}@example.com`;
      const a = await signedUp(browser, srv.url, email, options);
      const p = a.page;
      await p.goto(`${srv.url}/settings`);
      await p.getByRole("heading", { name: "Settings" }).waitFor();

      const [download] = await Promise.all([
        p.waitForEvent("download"),
        p.getByRole("link", { name: "Download my data" }).click(),
      ]);
      const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
      expect(data.account.email).toBe(email);
      expect(data.audit.map((e: { action: string }) => e.action)).toContain("account_exported");

      // The address typed must be the account's; the password must be its own.
      await p.getByLabel(`Type ${email} to confirm`).fill("someone@example.com");
      await p.getByRole("button", { name: "Delete my account" }).click();
      await p.getByRole("alert").getByText(`Type ${email} exactly to confirm.`).waitFor();
      await p.getByLabel(`Type ${email} to confirm`).fill(email);
      await p.getByLabel("Password").fill("not the password");
      await p.getByRole("button", { name: "Delete my account" }).click();
      await p.getByRole("alert").getByText("That is not your password: nothing was deleted.").waitFor();
      await p.screenshot({ path: join(SHOTS, `settings-${size}.png`), fullPage: true });
      if (size === "phone") expect(await phoneProblems(p)).toEqual([]);
      expect(await srv.deps.store.accounts.byEmail(email)).not.toBeNull();

      await p.getByLabel("Password").fill("a long password");
      await p.getByRole("button", { name: "Delete my account" }).click();
      await p.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await srv.deps.store.accounts.byEmail(email)).toBeNull();
      // The 401 of the wrong password is the page's answer, not a console error.
      expect(a.seen.filter((s) => !s.includes("401"))).toEqual([]);
      await a.ctx.close();
    });
});
