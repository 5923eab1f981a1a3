// The one HTML sanitiser: staff-written message content is cleaned on save and
// again on display, to this small safe subset.
import sanitize from "sanitize-html";

const OPTIONS: sanitize.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li", "a", "h3", "h4", "blockquote"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  transformTags: {
    a: sanitize.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }),
  },
  disallowedTagsMode: "discard",
};

export function sanitizeHtml(html: string): string {
  return sanitize(html, { ...OPTIONS, allowedAttributes: { a: ["href", "rel", "target"] } });
}

// Banners show the same few messages on every page view: their cleaned HTML is kept,
// keyed by the content itself, so a changed message is cleaned afresh.
const cleaned = new Map<string, string>();
const CACHE_LIMIT = 500;

/** Plain text with line breaks becomes paragraphs; HTML is sanitised. */
export function messageHtml(content: string): string {
  let html = cleaned.get(content);
  if (html === undefined) {
    html = toMessageHtml(content);
    if (cleaned.size >= CACHE_LIMIT) cleaned.clear();
    cleaned.set(content, html);
  }
  return html;
}

function toMessageHtml(content: string): string {
  const looksLikeHtml = /<\/?[a-z][^>]*>/i.test(content);
  if (looksLikeHtml) return sanitizeHtml(content);
  const escaped = content.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
}
