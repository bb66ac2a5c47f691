import { api, type Me } from "./api.ts";
import { readAddress } from "./doc-links.ts";
import { collectionPage } from "./documents/collection-page.ts";
import { documentPage } from "./documents/document-page.ts";
import { documentsPage } from "./documents/documents-page.ts";
import { h } from "./dom.ts";
import { authPage } from "./pages/auth.ts";
import { confirmPage } from "./pages/confirm.ts";
import { keysPage } from "./pages/keys.ts";
import { researchPage } from "./pages/research.ts";
import { runPage } from "./pages/run.ts";
import { settingsPage } from "./pages/settings.ts";
import { usagePage } from "./pages/usage.ts";
import { navigate, setRenderer } from "./router.ts";

type Page = (me: Me, params: string[]) => Promise<void> | void;
const ROUTES: [RegExp, Page][] = [
  [/^\/(research)?$/, researchPage],
  [/^\/keys$/, keysPage],
  [/^\/usage$/, usagePage],
  [/^\/settings$/, settingsPage],
  [/^\/runs\/([\w-]+)$/, (me, p) => runPage(me, p[0]!)],
  [/^\/documents$/, documentsPage],
  [/^\/documents\/[^/]+$/, documentsAt],
];

/** A collection's page, or one of its documents' (src/web/client/doc-links.ts reads the address). */
async function documentsAt(me: Me): Promise<void> {
  const at = readAddress(location.pathname, location.search);
  if (!at) return documentsPage();
  return at.docId === null ? collectionPage(at.collection) : documentPage(me, at.collection, at.docId);
}

function renderNav(me: Me | null): void {
  const here = location.pathname;
  const link = (href: string, label: string) =>
    h(
      "li",
      {},
      h(
        "a",
        {
          href,
          "data-link": true,
          "aria-current":
            here === href || (href === "/research" && here === "/") || (href !== "/" && here.startsWith(`${href}/`))
              ? "page"
              : undefined,
        },
        label,
      ),
    );
  const items = me
    ? [
        link("/research", "Research"),
        link("/documents", "Documents"),
        link("/keys", "API keys"),
        link("/usage", "Usage"),
        link("/settings", "Settings"),
        h("li", { class: "muted" }, me.email),
        h(
          "li",
          {},
          h(
            "button",
            {
              class: "secondary",
              type: "button",
              onclick: async () => {
                await api("POST", "/api/v1/auth/logout");
                navigate("/signin");
              },
            },
            "Sign out",
          ),
        ),
      ]
    : [link("/signin", "Sign in"), link("/signup", "Sign up")];
  document.getElementById("nav")!.replaceChildren(h("ul", {}, ...items));
}

let firstRender = true;

/**
 * After a page is drawn (docs/decisions/0153-focus-on-navigation.md): a move inside the app
 * puts focus on <main>, so a screen reader starts at the new page and Tab goes on from there,
 * without scrolling the header away; a direct load leaves focus where the browser put it.
 */
function arrived(): void {
  if (firstRender) {
    firstRender = false;
    return;
  }
  document.getElementById("main")!.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

/** The page for the address, or a redirect to another (drawn in turn). */
async function draw(): Promise<void> {
  const path = location.pathname;
  // Not /api/v1/me: its 401 for a signed-out visitor is a console error in every browser.
  const me = await api<{ account: Me | null }>("GET", "/api/v1/auth/session").then(
    (s) => s.account,
    () => null,
  );
  renderNav(me);
  if (path === "/confirm") return confirmPage().then(arrived);
  if (path === "/signin" || path === "/signup") {
    if (me) return navigate("/research");
    return authPage(path === "/signup" ? "signup" : "signin").then(arrived);
  }
  if (!me) return navigate("/signin");
  for (const [re, page] of ROUTES) {
    const m = re.exec(path);
    if (m) {
      await page(me, m.slice(1).filter(Boolean));
      return arrived();
    }
  }
  navigate("/research");
}

document.addEventListener("click", (e) => {
  const a = (e.target as Element | null)?.closest?.("a[data-link]") as HTMLAnchorElement | null;
  if (!a || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href")!);
});
setRenderer(draw);
window.addEventListener("popstate", () => void draw());
void draw();
