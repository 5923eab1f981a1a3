// The one HTML sanitiser: staff-written message content is cleaned on save and
// again on display, to this small safe subset.
//
// Escaped exactly once: a message is either HTML (it has a tag; stored
// sanitised, rendered as HTML) or plain text (stored exactly as typed, escaped here once
// when it becomes paragraphs). Plain text must never pass through the sanitiser on save:
// sanitize-html entity-encodes `&`, `<` and `>`, and the display escaped that again, so
// retailers read "&amp;". React escapes everything else (headers, names); PDFs, CSV and
// XLSX get raw text.
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

/** Whether message content is HTML (has a tag) rather than plain text with line breaks. */
export function isHtmlContent(content: string): boolean {
  return /<\/?[a-z][^>]*>/i.test(content);
}

/** What is stored for typed message content: HTML sanitised, plain text as typed. */
export function storedMessageContent(content: string): string {
  // A browser sends a textarea's line breaks as CRLF: stored as one "\n".
  const text = content.replace(/\r\n?/g, "\n");
  return isHtmlContent(text) ? sanitizeHtml(text) : text;
}

/** Plain text made safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function toMessageHtml(content: string): string {
  if (isHtmlContent(content)) return sanitizeHtml(content);
  return escapeHtml(content)
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
}
