import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseHTML } from "linkedom";

// The page builds real DOM nodes: a document from linkedom stands in for the browser's.
let mod: typeof import("../../../src/web/client/message-nodes.ts");
beforeAll(async () => {
  const { document } = parseHTML("<html><body></body></html>");
  Object.assign(globalThis, { document });
  mod = await import("../../../src/web/client/message-nodes.ts");
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, "document");
});

const html = (nodes: Node[]) => {
  const p = document.createElement("p");
  p.append(...nodes);
  return p.innerHTML;
};

test("a message's fix shows as code, not as backticks", () => {
  const out = html(mod.messageNodes("add some with `research-query corpus add PATH --shared`, or upload them"));
  expect(out).toBe("add some with <code>research-query corpus add PATH --shared</code>, or upload them");
});

test("nothing else of Markdown is read: an upstream's link or markup stays text", () => {
  const out = html(mod.messageNodes("arxiv: HTTP 400: [click](https://evil.example) <b>x</b>"));
  expect(out).not.toContain("<a");
  expect(out).not.toContain("<b>");
  expect(out).toContain("[click](https://evil.example)");
});

test("several messages are one line each", () => {
  expect(html(mod.messageLines(["one `a`", "two"]))).toBe("one <code>a</code><br>two");
});
