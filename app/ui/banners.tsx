import type { Banner } from "~/features/messages/index.server";

/**
 * Message banners at the top of every retailer page; the HTML is sanitised on the server.
 * Each is one line (its header and 'Visa') that opens to the message, so on
 * a small phone with large text they never push the page's h1 off the first screen, and
 * they are not headings: the page's h1 is the first heading. <details> opens without
 * JavaScript.
 */
export function Banners({ banners }: { banners: Banner[] }) {
  if (banners.length === 0) return null;
  // Several messages share the one line: "3 meddelanden", each header inside.
  const summary = banners.length === 1 ? banners[0].header || "Meddelande" : `${banners.length} meddelanden`;
  return (
    <details className="banner">
      <summary>
        <span className="banner-header">{summary}</span> <span className="banner-show">Visa</span>
      </summary>
      {banners.map((b) => (
        <div key={b.id} className="banner-message">
          {banners.length > 1 ? <strong className="banner-title">{b.header || "Meddelande"}</strong> : null}
          <div className="banner-content" dangerouslySetInnerHTML={{ __html: b.html }} />
        </div>
      ))}
    </details>
  );
}
