import { eq } from "drizzle-orm";
import type { Db } from "../db/open.ts";
import { settings } from "../db/schema.ts";
import { randomToken } from "../util/crypto.ts";

/**
 * The server's signing secret: SESSION_SECRET when set, else one generated on first
 * start and kept in the database so restarts don't invalidate what was signed.
 */
export function signingSecret(db: Db, configured: string | undefined): string {
  if (configured) return configured;
  const row = db.select().from(settings).where(eq(settings.key, "session_secret")).get();
  if (row) return row.value;
  db.insert(settings).values({ key: "session_secret", value: randomToken(32) }).onConflictDoNothing().run();
  return db.select().from(settings).where(eq(settings.key, "session_secret")).get()!.value;
}
