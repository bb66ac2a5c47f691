import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { freshBase, portOf } from "../auth/oidc/idp-browser.ts";
import { linkIn, type SmtpSink, startSmtpSink } from "../fixtures/smtp-sink.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { canRun, launchChromium, PHONE, phoneProblems, watchConsole } from "./browser.ts";

useLongTimeout();

// README "Accounts: sign-up and sign-in": with SMTP_URL the web sign-up waits for the mailed link
// (docs/decisions/0092-confirming-addresses-by-mail.md), walked here by a phone in Chromium.
const SHOTS = join(import.meta.dir, "screenshots");
// A long unbroken address is what pushes a notice sideways on a phone.
const EMAIL = "someone.with.a.rather.long.address@research-department.example.com";
const PASSWORD = "a long password";

let sink: SmtpSink, srv: TestServer, browser: Browser, ctx: BrowserContext, page: Page, seen: string[];
beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(SHOTS, { recursive: true });
  sink = startSmtpSink();
  // The mailed link is built from PUBLIC_URL, so the server needs its port before it starts.
  const base = freshBase();
  srv = startTestServer({
    engine: scriptedEngine(),
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: "rq@mail.test",
      SIGNUP_PER_HOUR: "100",
      PORT: portOf(base),
      PUBLIC_URL: `${base}/`,
    },
  });
  browser = await launchChromium();
  ctx = await browser.newContext(PHONE);
  page = await ctx.newPage();
  seen = watchConsole(page);
}, 60_000);
afterAll(async () => {
  if (!canRun) return;
  await browser?.close();
  await srv?.stop(100);
  sink?.stop();
});

/** The page as a phone user has it: the console errors expected so far, nothing off screen. */
async function check(name: string, expectedErrors: RegExp[] = []): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
  const errors = seen.splice(0);
  expect([name, errors.length, await phoneProblems(page)]).toEqual([name, expectedErrors.length, []]);
  expect(errors.map((e, i) => expectedErrors[i]?.test(e))).toEqual(expectedErrors.map(() => true));
}

/** Every visible notice's text: the alerts and the status line. */
const notices = () => page.locator(".alert p, p.alert, [role=status]").allTextContents();

/**
 * How the notice box looks: its background, and the room between it and what follows. Good
 * news ("check your mail", "confirmed") must not wear the red of an error, nor touch the form.
 */
const noticeBox = () =>
  page.locator(".alert.notice").evaluate((el) => {
    const next = (el.closest("[role=alert]") ?? el).nextElementSibling;
    const gap = next ? next.getBoundingClientRect().top - el.getBoundingClientRect().bottom : 16;
    // The error alert's background (src/web/styles.css ".alert").
    return { errorRed: getComputedStyle(el).backgroundColor === "rgb(253, 236, 234)", roomBelow: gap >= 8 };
  });
const LOOKS_RIGHT = { errorRed: false, roomBelow: true };

const mailsTo = (email: string) => sink.mails.filter((m) => m.to.includes(email)).length;

/** "Send the link again", then its status line; the server has decided once the line shows. */
async function sendAgain(): Promise<void> {
  const status = page.locator("[role=status]");
  await status.evaluate((el) => el.replaceChildren());
  await page.getByRole("button", { name: "Send the link again" }).tap();
  await status.filter({ hasText: /another link is on its way/ }).waitFor();
}

describe.if(canRun)("confirming the address in the browser (SMTP configured, 390 px)", () => {
  test("sign up → check the mail (resend, limited) → sign-in refused until the link → confirmed → signed in; a used or forged link says so", async () => {
    const first = sink.next();
    await page.goto(`${srv.url}/signup`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).tap();
    await page.getByText(/Check your mail/).waitFor();
    expect(await page.getByText(EMAIL).count()).toBe(1);
    const firstLink = linkIn(await first);
    expect(await noticeBox()).toEqual(LOOKS_RIGHT);
    await check("confirm-check-mail");

    // Within the minute another link is not mailed, and the page says no more than that.
    await sendAgain();
    expect(mailsTo(EMAIL)).toBe(1);
    await check("confirm-resend");
    // A minute later (the link's send time moved back rather than the clock waited on), it is.
    srv.sql.run("UPDATE email_confirmations SET created_at = ?", [new Date(Date.now() - 120_000).toISOString()]);
    const second = sink.next();
    await sendAgain();
    const secondLink = linkIn(await second);
    expect(mailsTo(EMAIL)).toBe(2);
    expect(secondLink).not.toBe(firstLink);

    await page.goto(`${srv.url}/signin`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).tap();
    await page.getByText("Confirm your email address first").waitFor();
    expect(await page.getByRole("heading", { name: "Research" }).count()).toBe(0);
    expect(await noticeBox()).toEqual(LOOKS_RIGHT);
    await check("confirm-not-yet", [/status of 403/]);

    // Opening the link confirms nothing (a mail scanner opens it too): its holder sets the password.
    await page.goto(secondLink);
    await page.waitForURL(`${srv.url}/confirm#token=${new URL(secondLink).searchParams.get("token")}`);
    await page.getByRole("heading", { name: "Confirm your address" }).waitFor();
    await check("confirm-password");
    expect(srv.sql.query("SELECT email_status AS s FROM accounts WHERE email = ?").get(EMAIL)).toEqual({
      s: "pending",
    });
    // The rule is written under the field, and said again, in the page's words, when broken.
    expect(await page.locator("#password-rule").textContent()).toBe("Use 8 to 256 characters.");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Confirm and sign in" }).tap();
    expect(await page.locator("p.alert").allTextContents()).toEqual([
      "This password is too short: use 8 to 256 characters.",
    ]);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Confirm and sign in" }).tap();
    await page.getByRole("heading", { name: "Research" }).waitFor();
    await check("confirm-signed-in");

    // Following the link dropped every link of the account: the first one is used up too.
    const invalid =
      "This confirmation link is unknown, used or expired. If you confirmed already, sign in; else sign up again or ask for another link.";
    for (const link of [firstLink, secondLink, `${srv.url}/api/v1/auth/confirm?token=forged`]) {
      await ctx.clearCookies();
      await page.goto(link);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(new URL(page.url()).searchParams.get("error")).toBe("confirmation_invalid");
      expect(await notices()).toEqual([invalid]);
      await check("confirm-invalid");
    }
  });
});
