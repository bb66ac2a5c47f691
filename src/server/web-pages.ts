import { PAGE_CSP, SECURITY_HEADERS } from "../http/security-headers.ts";
import { randomToken } from "../util/crypto.ts";

/** Paths the web app answers (client-side routing); everything else is the API. */
export const WEB_PATHS = [
  "/",
  "/signin",
  "/signup",
  "/confirm",
  "/research",
  "/keys",
  "/usage",
  "/settings",
  "/runs/:id",
  "/documents",
  "/documents/:name",
];

type Route = (req: Request) => Promise<Response>;

/**
 * The web app's pages with our headers. Bun bundles the HTML import (at start from a checkout,
 * at build time into the binary) and serves it on a route, but a bundle route takes no
 * headers, and the Console must not be framed by another site (http/security-headers.ts). So the
 * bundle is routed at an unguessable internal path, its page is fetched once from this
 * server, and the app's paths answer that page with the headers. The bundle's scripts and
 * styles stay on Bun's own asset routes.
 */
export function webPages(bundle: unknown): { routes: Record<string, unknown>; attach(selfUrl: string): void } {
  const internal = `/_app/${randomToken(16)}`;
  let self = "";
  let page: Promise<string> | undefined;
  const load = (): Promise<string> => {
    if (!page) {
      page = fetch(self + internal).then(async (r) => {
        if (!r.ok) throw new Error(`web app bundle answered ${r.status}`);
        return r.text();
      });
      // A failed load is tried again on the next visit rather than remembered.
      page.catch(() => {
        page = undefined;
      });
    }
    return page;
  };
  const serve: Route = async () =>
    new Response(await load(), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": PAGE_CSP,
        // README "The API": X-Request-Id on every response, the app's pages included.
        "x-request-id": crypto.randomUUID(),
        ...SECURITY_HEADERS,
      },
    });
  const routes: Record<string, unknown> = { [internal]: bundle };
  for (const p of WEB_PATHS) routes[p] = serve;
  return {
    routes,
    attach(selfUrl) {
      self = selfUrl;
    },
  };
}
