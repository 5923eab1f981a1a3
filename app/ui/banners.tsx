import type { Banner } from "~/features/messages/index.server";

/** Message banners at the top of every retailer page; the HTML is sanitised on the server. */
export function Banners({ banners }: { banners: Banner[] }) {
  if (banners.length === 0) return null;
  return (
    <div className="banners">
      {banners.map((b) => (
        <section key={b.id} className="banner" aria-label={b.header || "Meddelande"}>
          {b.header ? <h2 className="banner-header">{b.header}</h2> : null}
          <div className="banner-content" dangerouslySetInnerHTML={{ __html: b.html }} />
        </section>
      ))}
    </div>
  );
}
