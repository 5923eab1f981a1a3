import { useLocation, useNavigate } from "@remix-run/react";
import { Fragment } from "react";
import type { MenuItem } from "./menu";

function isCurrent(pathname: string, to: string): boolean {
  // The start pages are current only on themselves; a section also on its sub-pages.
  if (to === "/" || to === "/admin") return pathname === to;
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Long labels such as "Följsesedel/Leveransreklamation" may wrap after a slash. */
function Label({ text }: { text: string }) {
  const parts = text.split("/");
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? (
            <>
              /<wbr />
            </>
          ) : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function MenuList({ items, current }: { items: MenuItem[]; current: ReadonlySet<string> }) {
  return (
    <ul>
      {items.map((item) =>
        item.children ? (
          <li key={item.label}>
            <span className="nav-group">{item.label}</span>
            <MenuList items={item.children} current={current} />
          </li>
        ) : (
          <li key={item.to}>
            {/* data-discover: Remix learns these routes after hydration, as it does for a Link. */}
            <a href={item.to} aria-current={current.has(item.to) ? "page" : undefined} data-discover="true">
              <Label text={item.label} />
            </a>
          </li>
        ),
      )}
    </ul>
  );
}

function leaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => (item.children ? leaves(item.children) : [item]));
}

/**
 * The menu's links are plain `<a>` elements rather than one `<NavLink>` each: the
 * menu is on every page twice, and 32 NavLinks were a sixth of the server time of
 * the returns page (bench/RESULTS.md, B1; docs/decisions/010). With JavaScript, this one handler makes
 * a plain click on any of them a client-side navigation, as a Link would, and
 * closes the narrow-screen menu.
 */
function useMenuClicks() {
  const navigate = useNavigate();
  return (event: React.MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (!link || link.origin !== window.location.origin) return;
    event.preventDefault();
    link.closest("details")?.removeAttribute("open");
    navigate(link.pathname + link.search);
  };
}

/**
 * The menu: a sidebar on wide screens; on narrow screens a <details> disclosure,
 * which opens and closes without JavaScript. `locked` shows it greyed out and
 * without links (an imperative alert is pending).
 */
export function Nav({ items, locked = false }: { items: MenuItem[]; locked?: boolean }) {
  const { pathname } = useLocation();
  const onClick = useMenuClicks();
  if (locked) {
    return (
      <nav className="nav nav-locked" aria-label="Meny">
        <p>Menyn är låst tills det som krävs är gjort.</p>
      </nav>
    );
  }
  const current = new Set(leaves(items).filter((item) => isCurrent(pathname, item.to)).map((item) => item.to));
  // The click handler only speeds up what the links already do; the keyboard follows them as links.
  return (
    <>
      <details className="nav-mobile">
        <summary>Meny</summary>
        <nav className="nav" aria-label="Meny" onClick={onClick}>
          <MenuList items={items} current={current} />
        </nav>
      </details>
      <nav className="nav nav-wide" aria-label="Huvudmeny" onClick={onClick}>
        <MenuList items={items} current={current} />
      </nav>
    </>
  );
}
