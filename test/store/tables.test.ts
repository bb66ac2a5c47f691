import { afterAll, describe, expect, test } from "bun:test";
import type { AccountRow, KeyRow, NewRun, Store } from "../../src/store/types.ts";
import { everyPlan } from "../helpers/allowances.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, tableBackends } from "./backends.ts";

useLongTimeout();

/** The same behaviour of every table on every backend: what the service relies on, through the Store interface. */

const account = (email: string): AccountRow => ({
  id: crypto.randomUUID(),
  email,
  passwordHash: "h",
  plan: "free",
  createdAt: "2026-11-01T00:00:00.000Z",
  emailStatus: "unproven",
});

const key = (accountId: string, id: string, at = "2026-11-02T00:00:00.000Z"): KeyRow => ({
  id,
  accountId,
  name: id,
  prefix: `rq-${id}`,
  keyHash: `hash-${id}`,
  status: "active",
  createdAt: at,
  lastUsedAt: null,
  revokedAt: null,
});

const newRun = (accountId: string | null, instanceId = "i-test", at = new Date("2026-11-05T10:00:00Z")): NewRun => ({
  id: crypto.randomUUID(),
  accountId,
  keyId: null,
  keyPrefix: "rq-abc",
  origin: "api",
  endpoint: "/api/query",
  query: "q",
  createdAt: at,
  instanceId,
});

const outcome = {
  status: "ok" as const,
  answer: "a [S1]",
  sources: [],
  errors: [],
  writer: "extractive" as const,
  tokensIn: 3,
  tokensOut: 4,
  latencyMs: 5,
};

for (const backend of tableBackends()) {
  describe(`the store's tables on ${backend.title ?? backend.name}`, () => {
    const opened: AnyStore[] = [];
    const open = async (): Promise<Store> => {
      const s = await backend.open();
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("accounts: one per email; a plan changes by email", async () => {
      const s = await open();
      const a = account("a@x.org");
      expect(await s.accounts.insert(a)).toBe(true);
      expect(await s.accounts.insert({ ...account("a@x.org") })).toBe(false);
      expect(await s.accounts.byEmail("a@x.org")).toEqual(a);
      expect(await s.accounts.byId(a.id)).toEqual(a);
      expect(await s.accounts.byId("none")).toBeNull();
      expect(await s.accounts.setPlan("a@x.org", "pro")).toEqual({ ...a, plan: "pro" });
      expect(await s.accounts.setPlan("b@x.org", "pro")).toBeNull();
      // The CLI's account list and account confirm.
      const b = { ...account("b@x.org"), createdAt: "2099-01-01T00:00:00.000Z" };
      await s.accounts.insert(b);
      expect(await s.accounts.list()).toEqual([{ ...a, plan: "pro" }, b]);
      expect(await s.accounts.setProven("b@x.org")).toEqual({ ...b, emailStatus: "proven" });
      expect(await s.accounts.setProven("c@x.org")).toBeNull();
    });

    test("sessions: found by hash until they expire; deleted by hash", async () => {
      const s = await open();
      const a = account("s@x.org");
      await s.accounts.insert(a);
      const row = {
        id: "s1",
        accountId: a.id,
        tokenHash: "t1",
        createdAt: "2026-11-01T00:00:00Z",
        expiresAt: "2026-11-08T00:00:00Z",
      };
      expect(await s.sessions.insert(row, { passwordHash: "h" })).toBe(true);
      expect(await s.sessions.accountIdByHash("t1", "2026-11-02T00:00:00Z")).toBe(a.id);
      expect(await s.sessions.accountIdByHash("t1", "2026-11-09T00:00:00Z")).toBeNull();
      await s.sessions.deleteByHash("t1");
      expect(await s.sessions.accountIdByHash("t1", "2026-11-02T00:00:00Z")).toBeNull();
    });

    test("sessions and keys are written only while the credential checked is still the account's", async () => {
      const s = await open();
      const a = account("c@x.org");
      await s.accounts.insert(a);
      const session = (id: string) => ({
        id,
        accountId: a.id,
        tokenHash: id,
        createdAt: "2026-11-01T00:00:00Z",
        expiresAt: "2026-11-08T00:00:00Z",
      });
      const now = "2026-11-02T00:00:00Z";
      expect(await s.sessions.insert(session("pw"), { passwordHash: "h" })).toBe(true);
      expect(await s.sessions.insert(session("stale"), { passwordHash: "an older hash" })).toBe(false);
      expect(await s.apiKeys.insertWithin(key(a.id, "k1"), 100, { tokenHash: "pw", now })).toBe("inserted");
      expect(await s.apiKeys.insertWithin(key(a.id, "k2"), 100, { tokenHash: "ended", now })).toBe("no_session");
      const idp = { issuer: "https://idp", subject: "c", email: "c@x.org", emailVerified: true };
      expect(await s.identities.link(idp, "free")).toEqual({ accountId: a.id, replaced: true });
      expect(await s.sessions.insert(session("after"), { passwordHash: "h" })).toBe(false);
      expect(await s.apiKeys.insertWithin(key(a.id, "k3"), 100, { tokenHash: "pw", now })).toBe("no_session");
      expect(await s.sessions.insert(session("sso"), idp)).toBe(true);
      expect(await s.sessions.insert(session("other"), { ...idp, subject: "not linked" })).toBe(false);
      expect(await s.sessions.accountIdByHash("sso", now)).toBe(a.id);
      expect((await s.apiKeys.listByAccount(a.id)).map((k) => [k.id, k.status])).toEqual([["k1", "revoked"]]);
    });

    test("a takeover racing sign-ins and key creations that checked the old credentials: none of theirs survives, over many runs", async () => {
      const s = await open();
      const now = "2026-11-02T00:00:00Z";
      const left: number[] = [];
      for (let run = 0; run < 30; run++) {
        const a = account(`race${run}@x.org`);
        await s.accounts.insert(a);
        const session = (id: string) => ({
          id: `${run}-${id}`,
          accountId: a.id,
          tokenHash: `${run}-${id}`,
          createdAt: "2026-11-01T00:00:00Z",
          expiresAt: "2026-11-08T00:00:00Z",
        });
        await s.sessions.insert(session("held"), { passwordHash: "h" });
        const writes: (() => unknown)[] = [
          ...[1, 2, 3].map((i) => () => s.sessions.insert(session(`in-flight-${i}`), { passwordHash: "h" })),
          () => s.apiKeys.insertWithin(key(a.id, `${run}-k`), 100, { tokenHash: `${run}-held`, now }),
        ];
        const takeover = () =>
          s.identities.link({ issuer: "https://idp", subject: `r${run}`, email: a.email, emailVerified: true }, "free");
        writes.splice(run % (writes.length + 1), 0, takeover);
        await Promise.all(writes.map((w) => w()));
        left.push(
          (await backend.count(s as AnyStore, `SELECT COUNT(*) AS n FROM sessions WHERE account_id = '${a.id}'`)) +
            (await backend.count(
              s as AnyStore,
              `SELECT COUNT(*) AS n FROM api_keys WHERE account_id = '${a.id}' AND status = 'active'`,
            )),
        );
      }
      expect(left).toEqual(left.map(() => 0));
    });

    test("keys: newest first (insertion order within a millisecond), revoked once, checked by hash", async () => {
      const s = await open();
      const a = account("k@x.org");
      const b = account("other@x.org");
      await s.accounts.insert(a);
      await s.accounts.insert(b);
      for (const id of ["k1", "k2", "k3"]) await s.apiKeys.insert(key(a.id, id));
      expect((await s.apiKeys.listByAccount(a.id)).map((k) => k.id)).toEqual(["k3", "k2", "k1"]);
      const revoked = await s.apiKeys.revoke(a.id, "k2", "2026-11-03T00:00:00Z");
      expect(revoked).toMatchObject({ id: "k2", status: "revoked", revokedAt: "2026-11-03T00:00:00Z" });
      // Revoking again answers the same record; another account's key is not found.
      expect(await s.apiKeys.revoke(a.id, "k2", "2026-11-04T00:00:00Z")).toEqual(revoked);
      expect(await s.apiKeys.revoke(b.id, "k1", "2026-11-04T00:00:00Z")).toBeNull();
      expect(await s.apiKeys.accountOf("k1")).toBe(a.id);
      expect(await s.apiKeys.accountOf("nope")).toBeNull();
      await s.apiKeys.touch("k1", "2026-11-05T00:00:00Z");
      expect(await s.apiKeys.byHash("hash-k1")).toEqual({
        id: "k1",
        accountId: a.id,
        prefix: "rq-k1",
        status: "active",
        lastUsedAt: "2026-11-05T00:00:00Z",
      });
      expect(await s.apiKeys.byHash("hash-none")).toBeNull();
    });

    test("runs: counted up to the limit, finished with their timeline, reported per day and most recent first", async () => {
      const s = await open();
      const a = account("r@x.org");
      await s.accounts.insert(a);
      const r1 = newRun(a.id, "i", new Date("2026-11-05T10:00:00Z"));
      const r2 = newRun(a.id, "i", new Date("2026-11-06T10:00:00Z"));
      expect(await s.runs.accept(r1, everyPlan(2))).toEqual({ accepted: true });
      expect(await s.runs.accept(r2, everyPlan(2))).toEqual({ accepted: true });
      expect(await s.runs.accept(newRun(a.id), everyPlan(2))).toEqual({ accepted: false });
      expect(await s.runs.accept(newRun(a.id), everyPlan(0))).toEqual({ accepted: false });
      // Uncounted: no account, or no limit.
      expect(await s.runs.accept(newRun(null), everyPlan(1))).toEqual({ accepted: true });
      expect(await s.runCounters.used(a.id, "2026-11")).toBe(2);
      expect(await s.runCounters.used(a.id, "2026-12")).toBe(0);
      const events = [
        { atMs: 0, type: "progress", data: { seq: 1, stage: "planning" } },
        { atMs: 7, type: "final", data: { seq: 2, nested: { ok: true } } },
      ];
      // The verifier's quotes ride on the sources, its counts in a column (README "Claims you can check").
      const evidence = [{ claim: "a", quote: "A, as the page says.", support: 0.9 }];
      const verification = { claims: 1, cited: 1, supported: 1, unsupported: 0, coverage: 1 };
      await s.runs.finish(r1.id, { ...outcome, sources: [{ id: "S1", evidence } as never], verification }, events);
      const got = await s.runs.withEvents(a.id, r1.id);
      expect(got?.events).toEqual(events);
      expect(got?.run).toMatchObject({
        id: r1.id,
        status: "ok",
        answer: "a [S1]",
        sources: [{ id: "S1", evidence }],
        errors: [],
        verification,
      });
      expect(got?.run.finishedAt).toBeString();
      expect((await s.runs.withEvents(a.id, r2.id))?.run).toMatchObject({
        status: "running",
        sources: [],
        errors: [],
        verification: null,
      });
      expect(await s.runs.withEvents("someone else", r1.id)).toBeNull();
      expect(await s.runs.perDay(a.id, "2026-11")).toEqual([
        { date: "2026-11-05", calls: 1, ok: 1, error: 0 },
        { date: "2026-11-06", calls: 1, ok: 0, error: 0 },
      ]);
      expect((await s.runs.recent(a.id, 10)).map((r) => r.request_id)).toEqual([r2.id, r1.id]);
      expect(await s.runs.recent(a.id, 1)).toEqual([
        expect.objectContaining({ request_id: r2.id, status: "running", origin: "api", key_prefix: "rq-abc" }),
      ]);
    });

    test("acceptance reads the account's plan and the key's status itself: a gone account, a revoked key, an allowance of 0 write nothing", async () => {
      const s = await open();
      const pro = { ...account("pro@x.org"), plan: "pro" as const };
      await s.accounts.insert(pro);
      await s.apiKeys.insert(key(pro.id, "kp"));
      const plans = { free: 0, researcher: 0, pro: 2 };
      const withKey = () => ({ ...newRun(pro.id), keyId: "kp" });
      expect(await s.runs.accept(withKey(), plans)).toEqual({ accepted: true });
      expect(await s.runs.accept(withKey(), plans)).toEqual({ accepted: true });
      expect(await s.runs.accept(withKey(), plans)).toEqual({ accepted: false });
      // A fresh month on a plan of 0 runs, with or without an Idempotency-Key.
      const free = account("free@x.org");
      await s.accounts.insert(free);
      const since = new Date("2026-11-04T10:00:00Z");
      expect(await s.runs.accept(newRun(free.id), plans)).toEqual({ accepted: false });
      expect(await s.runs.accept(newRun(free.id), plans, { key: "z", queryHash: "q", since })).toEqual({
        accepted: false,
      });
      // Revoked after the credential check, before acceptance.
      await s.apiKeys.revoke(pro.id, "kp", "2026-11-05T11:00:00Z");
      expect(await s.runs.accept(withKey(), everyPlan(10), { key: "r", queryHash: "q", since })).toEqual({
        accepted: false,
        refused: "key_inactive",
      });
      expect(await s.runs.accept(newRun("gone"), everyPlan(10))).toEqual({ accepted: false, refused: "no_account" });
      expect(await s.runCounters.used(pro.id, "2026-11")).toBe(2);
      expect(await s.runCounters.used(free.id, "2026-11")).toBe(0);
      expect(await s.runs.recent(pro.id, 10)).toHaveLength(2);
      expect(await s.runs.recent(free.id, 10)).toEqual([]);
    });

    test("idempotency keys: a retry names the first run, a reuse for another question says so, an expired key is free", async () => {
      const s = await open();
      const a = account("i@x.org");
      await s.accounts.insert(a);
      const since = new Date("2026-11-04T10:00:00Z");
      const claim = { key: "k", queryHash: "q1", since };
      const first = newRun(a.id);
      expect(await s.runs.accept(first, everyPlan(10), claim)).toEqual({ accepted: true });
      expect(await s.runs.accept(newRun(a.id), everyPlan(10), claim)).toEqual({
        accepted: false,
        existing: first.id,
        sameQuery: true,
      });
      expect(await s.runs.accept(newRun(a.id), everyPlan(10), { ...claim, queryHash: "q2" })).toEqual({
        accepted: false,
        existing: first.id,
        sameQuery: false,
      });
      // A retry is not counted, even with the allowance used up.
      expect(await s.runCounters.used(a.id, "2026-11")).toBe(1);
      expect(await s.runs.accept(newRun(a.id), everyPlan(0), claim)).toMatchObject({ existing: first.id });
      const later = newRun(a.id, "i", new Date("2026-11-07T10:00:00Z"));
      expect(await s.runs.accept(later, everyPlan(10), { ...claim, since: new Date("2026-11-06T10:00:00Z") })).toEqual({
        accepted: true,
      });
      expect(
        await s.runs.accept(newRun(a.id), everyPlan(10), { ...claim, since: new Date("2026-11-06T10:00:00Z") }),
      ).toEqual({
        accepted: false,
        existing: later.id,
        sameQuery: true,
      });
    });

    test("settings: created once, then read back", async () => {
      const s = await open();
      let made = 0;
      const make = () => `secret-${++made}`;
      expect(await s.settings.getOrCreate("session_secret", make)).toBe("secret-1");
      expect(await s.settings.getOrCreate("session_secret", make)).toBe("secret-1");
      expect(made).toBe(1);
    });

    test("identities: linked once; an existing account's email links only when verified", async () => {
      const s = await open();
      const claim = { issuer: "https://idp", subject: "s1", email: "new@x.org", emailVerified: false };
      const made = await s.identities.link(claim, "pro");
      expect(made).toEqual({ accountId: expect.any(String), created: true });
      expect(await s.identities.link(claim, "free")).toEqual({ accountId: (made as { accountId: string }).accountId });
      expect(await s.accounts.byEmail("new@x.org")).toMatchObject({ plan: "pro", passwordHash: null });
      const owner = account("owner@x.org");
      await s.accounts.insert(owner);
      const other = { issuer: "https://idp", subject: "s2", email: "owner@x.org", emailVerified: false };
      expect(await s.identities.link(other, "free")).toEqual({ refused: "email_not_verified" });
      // The owner's address was only typed: the verified identity takes it over, credentials revoked.
      expect(await s.identities.link({ ...other, emailVerified: true }, "free")).toEqual({
        accountId: owner.id,
        replaced: true,
      });
      expect(await s.accounts.byId(owner.id)).toMatchObject({ passwordHash: null, emailStatus: "proven" });
      // A proven address is joined as it is.
      const proven = { ...account("proven@x.org"), emailStatus: "proven" as const };
      await s.accounts.insert(proven);
      const joining = { issuer: "https://idp", subject: "s4", email: "proven@x.org", emailVerified: true };
      expect(await s.identities.link(joining, "free")).toEqual({ accountId: proven.id });
      expect(await s.accounts.byId(proven.id)).toMatchObject({ passwordHash: "h", emailStatus: "proven" });
      expect(await s.identities.link({ ...other, subject: "s3", email: undefined }, "free")).toEqual({
        refused: "no_email",
      });
    });

    test("confirmation links: opening reads only, a new link kills the older, the holder's password is set with the proof", async () => {
      const s = await open();
      const p = { ...account("p@x.org"), passwordHash: "squatter", emailStatus: "pending" as const };
      await s.accounts.insert(p);
      const link = (token: string, at: string) => ({
        tokenHash: token,
        accountId: p.id,
        createdAt: at,
        expiresAt: "2026-11-02T00:00:00.000Z",
      });
      const now = "2026-11-01T01:00:00.000Z";
      await s.emailConfirmations.insert(link("t1", "2026-11-01T00:00:00.000Z"));
      expect(await s.emailConfirmations.live("t1", now)).toBe(p.id);
      expect(await s.accounts.byId(p.id)).toMatchObject({ emailStatus: "pending", passwordHash: "squatter" });
      // A sign-up taking the address back: its password, and only its link works; both mails count.
      expect(await s.accounts.retakePending("p@x.org", "owner")).toMatchObject({ id: p.id, passwordHash: "owner" });
      await s.emailConfirmations.insert(link("t2", "2026-11-01T00:30:00.000Z"));
      expect(await s.emailConfirmations.live("t1", now)).toBeNull();
      expect(await s.emailConfirmations.take("t1", now, "late")).toBeNull();
      expect(await s.emailConfirmations.sentSince(p.id, "2026-11-01T00:00:00.000Z")).toHaveLength(2);
      expect(await s.emailConfirmations.take("t2", now, "chosen")).toBe(p.id);
      expect(await s.accounts.byId(p.id)).toMatchObject({ emailStatus: "proven", passwordHash: "chosen" });
      expect(await s.emailConfirmations.take("t2", now, "again")).toBeNull();
      expect(await s.accounts.retakePending("p@x.org", "late")).toBeNull();
    });

    test("instances: a live lease's runs are kept, a released or missing one's are interrupted", async () => {
      const s = await open();
      const interrupted = { code: "interrupted", message: "the instance running it stopped" };
      expect(await s.instances.renew("live", 60_000)).toBe(false);
      expect(await s.instances.renew("live", 60_000)).toBe(true);
      expect(await s.instances.renew("gone", 60_000)).toBe(false);
      const mine = newRun(null, "live");
      const theirs = newRun(null, "gone");
      const orphan = newRun(null, "never-leased");
      for (const r of [mine, theirs, orphan]) await s.runs.accept(r, null);
      expect(await s.runs.markInterrupted(interrupted)).toBe(1);
      await s.instances.release("gone");
      expect(await s.runs.markInterrupted(interrupted)).toBe(1);
      expect(await s.runs.markInterrupted(interrupted)).toBe(0);
      // A lease that lasts no time has lapsed at once: taken again, and forgotten by the sweep.
      expect(await s.instances.renew("brief", 0)).toBe(false);
      expect(await s.instances.renew("brief", 0)).toBe(false);
      expect(await s.instances.forgetExpired()).toBe(1);
      expect(await s.instances.renew("live", 60_000)).toBe(true);
      await s.instances.release("live");
      expect(await s.runs.markInterrupted(interrupted)).toBe(1);
    });
  });
}
