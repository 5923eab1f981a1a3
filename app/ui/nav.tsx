import { NavLink } from "@remix-run/react";
import type { MenuItem } from "./menu";

/** Long labels such as "Följsesedel/Leveransreklamation" may wrap after a slash. */
function Label({ text }: { text: string }) {
  const parts = text.split("/");
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              /<wbr />
            </>
          ) : null}
        </span>
      ))}
    </>
  );
}

function Items({ items }: { items: MenuItem[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.label}>
          {item.children ? (
            <>
              <span className="nav-group">{item.label}</span>
              <Items items={item.children} />
            </>
          ) : (
            <NavLink to={item.to} end={item.to === "/" || item.to === "/admin"} prefetch="none">
              <Label text={item.label} />
            </NavLink>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The menu: a sidebar on wide screens; on narrow screens a <details> disclosure,
 * which opens and closes without JavaScript. `locked` shows it greyed out and
 * without links (an imperative alert is pending).
 */
export function Nav({ items, locked = false }: { items: MenuItem[]; locked?: boolean }) {
  if (locked) {
    return (
      <nav className="nav nav-locked" aria-label="Meny">
        <p>Menyn är låst tills det som krävs är gjort.</p>
      </nav>
    );
  }
  return (
    <>
      <details className="nav-mobile">
        <summary>Meny</summary>
        <nav className="nav" aria-label="Meny">
          <Items items={items} />
        </nav>
      </details>
      <nav className="nav nav-wide" aria-label="Huvudmeny">
        <Items items={items} />
      </nav>
    </>
  );
}
