import { afterAll, describe, expect, test } from "bun:test";
import type { AccountRow, AuditNote, Store } from "../../src/store/types.ts";
import { type AnyStore, backends } from "./backends.ts";

const account = (email: string, emailStatus: AccountRow["emailStatus"] = "unproven"): AccountRow => ({
  id: crypto.randomUUID(),
  email,
  passwordHash: "h",
  plan: "free",
  createdAt: "2026-11-01T00:00:00.000Z",
  emailStatus,
});
const note = (action: string, over: Partial<AuditNote> = {}): AuditNote => ({
  action,
  actorId: null,
  actor: null,
  ip: "192.0.2.1",
  ...over,
});
const BOUND = { max: 20, windowMs: 3_600_000 };

for (const backend of backends) {
  describe(`the audit trail's port on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    const open = async (): Promise<AnyStore> => {
      const s = await backend.open();
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });
    const rows = (s: AnyStore, where = "true") =>
      backend.count(s, `SELECT count(*) AS n FROM audit_events WHERE ${where}`);

    test("1,000 failed sign-ins from one address, or on one account from 1,000 addresses: 20 rows each, every one counted", async () => {
      const s = await open();
      for (let i = 0; i < 1000; i++)
        await s.audit.failedSignin(note("signin_failed", { ip: "198.51.100.1", target: `u${i}@x.org` }), BOUND);
      expect(await rows(s, "ip = '198.51.100.1'")).toBe(20);
      expect(await backend.count(s, "SELECT sum(cut) AS n FROM audit_events WHERE ip = '198.51.100.1'")).toBe(980);
      for (let i = 0; i < 1000; i++)
        await s.audit.failedSignin(
          note("signin_failed", { ip: `10.0.${i >> 8}.${i & 255}`, target: "v@x.org" }),
          BOUND,
        );
      expect(await rows(s, "target = 'v@x.org'")).toBe(20);
      expect(await backend.count(s, "SELECT sum(cut) AS n FROM audit_events WHERE target = 'v@x.org'")).toBe(980);
    });

    test("deleteAuditEventsBefore: at most `limit` of the events older than the cutoff, never a newer one", async () => {
      const s = await open();
      for (let i = 0; i < 5; i++) await s.audit.append(note("signin"));
      const sql = `UPDATE audit_events SET at = '2020-01-0${1}T00:00:00.000Z' WHERE id IN (SELECT id FROM audit_events ORDER BY id LIMIT 3)`;
      if (backend.name === "sqlite") (s as { raw: import("bun:sqlite").Database }).raw.exec(sql);
      else await (s as { raw: import("bun").SQL }).raw.unsafe(sql);
      const cutoff = new Date("2021-01-01T00:00:00Z");
      expect(await s.audit.deleteAuditEventsBefore(cutoff, 2)).toBe(2);
      expect(await s.audit.deleteAuditEventsBefore(cutoff, 2)).toBe(1);
      expect(await s.audit.deleteAuditEventsBefore(cutoff, 2)).toBe(0);
      expect(await rows(s)).toBe(2);
    });

    test("an entry commits with its change, and not without it", async () => {
      const s: Store = await open();
      const a = account("a@x.org");
      expect(await s.accounts.insert(a, note("signup", { actorId: a.id, actor: a.email }))).toBe(true);
      expect(await s.accounts.insert(account("a@x.org"), note("signup"))).toBe(false);
      // A link confirming the address: the store names its account as the actor.
      await s.emailConfirmations.insert({
        tokenHash: "t1",
        accountId: a.id,
        createdAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(await s.emailConfirmations.take("t0", new Date().toISOString(), "h2", note("email_confirmed"))).toBeNull();
      expect(await s.emailConfirmations.take("t1", new Date().toISOString(), "h2", note("email_confirmed"))).toBe(a.id);
      // A verified identity takes the unproven address over; a new identity makes an account.
      const claim = { issuer: "https://idp", subject: "s1", email: "a@x.org", emailVerified: true };
      await s.accounts.insert(account("b@x.org"));
      const takeover = { issuer: "https://idp", subject: "s2", email: "b@x.org", emailVerified: true };
      expect(await s.identities.link(claim, "free", note("signup"))).toEqual({ accountId: a.id });
      expect(await s.identities.link(takeover, "free", note("signup"))).toMatchObject({ replaced: true });
      const made = await s.identities.link({ ...claim, subject: "s3", email: "c@x.org" }, "free", note("signup"));
      expect(made).toMatchObject({ created: true });
      // A refused upload (over the allowance) rolls its entry back with it.
      const c = (await s.corpus.createCollection(
        { name: "n", ownerId: a.id, visibility: "private" },
        note("collection_created"),
      ))!;
      const file = { collectionId: c.id, docId: "d.md", format: "markdown", bytes: 10, instanceId: null, spool: "x" };
      expect(await s.uploads.enqueue(c.id, a.id, [file], () => false, note("documents_uploaded"))).toBe("over");
      expect(await s.corpus.updateCollection(c.id + 1000, { name: "m" }, note("collection_renamed"))).toBe("missing");
      expect(await s.corpus.removeDocuments(c.id, ["none"], note("document_deleted"))).toBe(0);
      // A file on its way in, removed: its entry with that removal, once; removing nothing records nothing.
      expect(await s.uploads.enqueue(c.id, a.id, [file], () => true)).toMatchObject({ queued: [{ docId: "d.md" }] });
      expect(await s.uploads.remove(c.id, "d.md", note("document_deleted"))).toHaveLength(1);
      expect(await s.uploads.remove(c.id, "d.md", note("document_deleted"))).toHaveLength(0);
      const actions = (await s.audit.list({ limit: 100 })).map((r) => `${r.action}:${r.actor ?? "-"}`).reverse();
      expect(actions).toEqual([
        "signup:a@x.org",
        "email_confirmed:a@x.org",
        "account_taken_over:b@x.org",
        "signup:c@x.org",
        "collection_created:-",
        "document_deleted:-",
      ]);
      expect((await s.audit.forAccount(a.id, null, 10)).map((r) => r.action)).toEqual(["email_confirmed", "signup"]);
    });
  });
}
