/**
 * The inline Markdown the API document's descriptions use, as HTML for /docs
 * (docs/decisions/0154-docs-render-descriptions-and-bodies.md): `code`, **strong**, *emphasis*
 * and [links](…). Everything else is text.
 */

/** Threat: a description (or a name in it) carrying markup; every character that could open a tag or leave an attribute is escaped. */
export const escapeHtml = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Threat: a `javascript:` or `data:` link; only the web, this server's paths and anchors are linked. */
const SAFE_HREF = /^(https?:\/\/|\/(?!\/)|#)/i;

/** Text outside code spans: escaped first, then links, strong, emphasis (each over escaped text, so none can add a tag). */
function spans(text: string): string {
  return escapeHtml(text)
    .replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_whole, label: string, href: string) =>
      SAFE_HREF.test(href) ? `<a href="${href}">${label}</a>` : label,
    )
    .replace(/\*\*(\S(?:[^*]*\S)?)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])\*(\S(?:[^*]*\S)?)\*(?=$|[\s).,;:!?])/g, "$1<em>$2</em>");
}

/** One description as HTML: code spans kept verbatim (escaped, nothing inside them is Markdown). */
export function inlineMarkdown(text: string): string {
  const parts = String(text ?? "").split(/(`[^`\n]+`)/);
  return parts
    .map((p) =>
      p.length > 2 && p.startsWith("`") && p.endsWith("`") ? `<code>${escapeHtml(p.slice(1, -1))}</code>` : spans(p),
    )
    .join("");
}
