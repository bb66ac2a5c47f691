import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAccount, setPlan } from "../../src/auth/accounts.ts";
import { accountForIdentity } from "../../src/auth/oidc/link-account.ts";
import { AppError } from "../../src/contract/errors.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";
import { loginFrom, PASSWORD, signupFrom } from "./auth-calls.ts";

useLongTimeout();

let srv: InProcessServer;
beforeAll(() => {
  srv = startInProcess({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "1000" } });
});
afterAll(() => srv.stop(100));

const tag = () => crypto.randomUUID().slice(0, 6);
const codeOf = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
    return "ok";
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

describe("one address, one account", () => {
  test("the same address in NFC and NFD is one account: the second sign-up is 409, either form signs in", async () => {
    const t = tag();
    const nfc = `jos\u00e9.${t}@example.com`;
    const nfd = `jose\u0301.${t}@example.com`;
    expect((await signupFrom(srv, nfc)).status).toBe(201);
    const again = await signupFrom(srv, nfd.toUpperCase());
    expect([again.status, again.code]).toEqual([409, "email_taken"]);
    expect((await loginFrom(srv, nfd, PASSWORD)).status).toBe(200);
  });

  test("invisible and look-alike characters are refused at sign-up (400 invalid_request)", async () => {
    const t = tag();
    expect((await signupFrom(srv, `zw.${t}@example.com`)).status).toBe(201);
    for (const fake of [
      `z\u200bw.${t}@example.com`, // zero-width space
      `zw.${t}\u2060@example.com`, // word joiner
      `zw.${t}@exa\u00admple.com`, // soft hyphen
      `z\u202ew.${t}@example.com`, // right-to-left override
      `zw\u3164.${t}@example.com`, // Hangul filler
      `\uff5aw.${t}@example.com`, // full-width z
    ]) {
      const a = await signupFrom(srv, fake);
      expect([fake, a.status, a.code]).toEqual([fake, 400, "invalid_request"]);
    }
    const count = srv.sql.query("SELECT COUNT(*) AS n FROM accounts WHERE email LIKE ?").get(`%${t}%`) as { n: number };
    expect(count.n).toBe(1);
  });

  test("sign-in with an invisible character typed in finds the plain account", async () => {
    const email = `plain.${tag()}@example.com`;
    await signupFrom(srv, email);
    expect((await loginFrom(srv, email.replace("@", "\u200b@"), PASSWORD)).status).toBe(200);
  });

  test("an account stored before normalisation (NFD, as typed) still signs in as typed", async () => {
    const t = tag();
    const nfd = `rene\u0301.${t}@example.com`;
    const hash = await Bun.password.hash(PASSWORD, { algorithm: "argon2id" });
    srv.sql
      .query("INSERT INTO accounts (id, email, password_hash, plan, created_at) VALUES (?, ?, ?, 'free', ?)")
      .run(crypto.randomUUID(), nfd, hash, new Date().toISOString());
    expect((await loginFrom(srv, nfd, PASSWORD)).status).toBe(200);
    expect((await setPlan(srv.deps.store, nfd, "pro")).email).toBe(nfd);
  });

  test("the CLI's account create normalises and refuses the same way", async () => {
    const db = openSqliteStore(":memory:");
    const made = await createAccount(db, "Jose\u0301@Example.com", PASSWORD, "free");
    expect(made.email).toBe("jos\u00e9@example.com");
    expect(await codeOf(() => createAccount(db, "jos\u00e9@example.com", PASSWORD, "free"))).toBe("email_taken");
    expect(await codeOf(() => createAccount(db, "o\u200bps@example.com", PASSWORD, "free"))).toBe("invalid_request");
  });

  test("an identity provider's verified look-alike email is never linked to the plain address's account", async () => {
    const db = openSqliteStore(":memory:");
    const owner = await createAccount(db, "ren\u00e9@example.com", PASSWORD, "free");
    const policy = { defaultPlan: "free" as const, allowedDomains: [] };
    const link = (subject: string, email: string) =>
      accountForIdentity(db, { issuer: "https://idp.example", subject, email, emailVerified: true }, policy);
    expect(await codeOf(() => link("s1", "re\u200bn\u00e9@example.com"))).toBe("oidc_failed");
    expect(await codeOf(() => link("s2", "\uff52en\u00e9@example.com"))).toBe("oidc_failed");
    // The same text in NFD is the same address: linked to the owner's account.
    expect(await link("s3", "RENE\u0301@example.com")).toBe(owner.id);
  });
});
