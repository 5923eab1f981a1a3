import { Link } from "@remix-run/react";
import { formatKr } from "~/lib/money";

type Card = {
  id: number;
  titleId: number;
  description: string;
  extraDescription: string | null;
  startDate: string;
  endDate: string;
  priceOre: number | null;
  coverImageId: number | null;
};

/** The day's products as cards grouped by title; "Välj" selects one for editing. */
export function ProductCards({ day, titles, products, selectedId }: { day: string; titles: { id: number; name: string }[]; products: Card[]; selectedId: number | null }) {
  return (
    <>
      {titles.map((t) => {
        const cards = products.filter((p) => p.titleId === t.id);
        return (
          <section key={t.id} aria-labelledby={`dp-title-${t.id}`}>
            <h3 id={`dp-title-${t.id}`}>{t.name}</h3>
            {cards.length === 0 ? <p>Inga produkter.</p> : null}
            <ul className="product-cards">
              {cards.map((p) => (
                <li key={p.id} className={`card${selectedId === p.id ? " selected" : ""}`}>
                  {p.coverImageId ? <img src={`/bilder/${p.coverImageId}`} alt={`Omslag: ${p.description}`} width={100} /> : null}
                  <div>
                    <strong>{p.description}</strong>
                    {p.extraDescription ? <p>{p.extraDescription}</p> : null}
                    <p className="hint">
                      {p.startDate === p.endDate ? p.startDate : `${p.startDate} – ${p.endDate}`}
                      {p.priceOre ? `, ${formatKr(p.priceOre)}` : ""}
                    </p>
                    <Link to={`?datum=${day}&valj=${p.id}`} aria-label={`Välj ${p.description}`}>
                      Välj
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
