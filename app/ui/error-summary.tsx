// A refused form's summary at its top (the GOV.UK error summary): what went wrong, how
// many fields, and a link to each. A link moves the focus to its field and shows it in
// the middle of the screen, never under a sticky save bar; without JavaScript it is a
// plain link to the field's id (its scroll-margin keeps it clear of the bar).

export type SummaryItem = { href: `#${string}`; text: string };

export function ErrorSummary({ title, items }: { title: string; items: SummaryItem[] }) {
  if (items.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{title}</h2>
      <p>{items.length === 1 ? "1 fält behöver rättas:" : `${items.length} fält behöver rättas:`}</p>
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              onClick={(e) => {
                const field = document.getElementById(item.href.slice(1));
                if (!field) return;
                e.preventDefault();
                field.focus({ preventScroll: true });
                field.scrollIntoView({ block: "center" });
              }}
            >
              {item.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
