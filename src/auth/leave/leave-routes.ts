import { t } from "elysia";
import { publicUrl } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import { DeleteAccountBodySchema } from "../../contract/leaving.ts";
import {
  BODY_TOO_LARGE,
  COOKIE_AUTH,
  err,
  header,
  publicOp,
  retry,
  sessionOp,
} from "../../contract/openapi-operations.ts";
import { ref } from "../../contract/openapi-schemas.ts";
import { NO_STORE } from "../../http/responses.ts";
import { routes } from "../../http/route.ts";
import type { Store } from "../../store/types.ts";
import { sha256Hex } from "../../util/crypto.ts";
import type { Logger } from "../../util/logger.ts";
import { type Account, argon2Verify } from "../accounts.ts";
import { Audit } from "../audit/audit.ts";
import type { LoginThrottle } from "../login-throttle.ts";
import { clearedSessionCookie, sessionToken } from "../session-cookie.ts";
import { exportStream } from "./export-stream.ts";
import { removeAccount, type SpoolFiles } from "./remove-account.ts";

/** An identity-provider account deletes itself only this soon after signing in (it has no password to type). */
export const RECENT_SIGNIN_MS = 10 * 60_000;

const EXPORT = sessionOp("exportMe", "Accounts", "Everything kept of the account, as one JSON document (streamed)", {
  200: {
    description:
      "the account, its keys, usage, runs, collections with their documents' text, and its audit trail (Content-Disposition: attachment)",
    content: { "application/json": { schema: ref("AccountExport") } },
  },
});
const DELETE_ME = publicOp(
  "deleteMe",
  "Accounts",
  "Delete the account and everything of it (the password, or a sign-in within 10 minutes)",
  {
    204: { description: "deleted; the cookie is cleared", headers: { "Set-Cookie": header("Set-Cookie") } },
    400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
    401: err(["unauthorized", "invalid_credentials"], " (no session; a wrong password)"),
    403: err(["CROSS_SITE_REQUEST", "reauthentication_required"]),
    429: err(["too_many_attempts"], "", retry),
  },
  {
    security: COOKIE_AUTH,
    requestBody: { required: false, content: { "application/json": { schema: ref("DeleteAccountBody") } } },
  },
);

/** What leaving needs: the store, the sign-in throttle (a password is guessed here too) and the spool. */
export interface LeaveDeps {
  config: Config;
  store: Store;
  logger: Logger;
  throttle: LoginThrottle;
  imports: { spool: SpoolFiles };
}

/** A person leaving with their data (README "When a person leaves"): session cookie only, never a key. */
export const LEAVE_ROUTES = routes<Account>()(
  {
    exportMe: { method: "GET", path: "/api/v1/me/export", auth: "session", body: "none", operation: EXPORT },
    deleteMe: {
      method: "DELETE",
      path: "/api/v1/me",
      auth: "session",
      body: "json",
      schema: t.Optional(DeleteAccountBodySchema),
      operation: DELETE_ME,
    },
  },
  (deps: LeaveDeps) => {
    const audit = new Audit(deps.config, deps.logger);
    const secure = publicUrl(deps.config).startsWith("https:");
    return {
      exportMe: async ({ account, request }) => {
        const row = await deps.store.accounts.byId(account.id);
        if (!row) throw new AppError("unauthorized", "sign in first: this endpoint needs the session cookie");
        await audit.append(deps.store, audit.note("account_exported", request, account));
        return new Response(exportStream(deps.store, row), {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "content-disposition": 'attachment; filename="research-query-export.json"',
            ...NO_STORE,
          },
        });
      },
      deleteMe: async ({ account, request, body }) => {
        const row = await deps.store.accounts.byId(account.id);
        if (!row) throw new AppError("unauthorized", "sign in first: this endpoint needs the session cookie");
        if (row.passwordHash) {
          // Threat: a session left open (a shared computer) deleting its account; the password is guessed here as at sign-in.
          const attempt = await deps.throttle.begin({ email: row.email, client: audit.client(request), device: null });
          const ok = await argon2Verify(body?.password ?? "", row.passwordHash).catch(async (e) => {
            await attempt.settle("abandoned");
            throw e;
          });
          await attempt.settle(ok ? "success" : "failure");
          if (!ok) throw new AppError("invalid_credentials", "wrong password: nothing was deleted");
        } else {
          const token = sessionToken(request);
          const at = token && (await deps.store.sessions.createdAt(sha256Hex(token), new Date().toISOString()));
          if (!at || Date.now() - Date.parse(at) > RECENT_SIGNIN_MS)
            throw new AppError(
              "reauthentication_required",
              "Sign in again through your identity provider, then delete within 10 minutes: nothing was deleted.",
            );
        }
        const entry = await removeAccount(
          deps.store,
          deps.imports.spool,
          row,
          deps.config.SESSION_SECRET,
          audit.note("account_deleted", request, null),
        );
        audit.logged(entry ?? undefined);
        return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
      },
    };
  },
);
