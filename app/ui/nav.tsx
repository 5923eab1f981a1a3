import { useLocation, useNavigate } from "@remix-run/react";
import type { MenuItem } from "./menu";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]);

function isCurrent(pathname: string, to: string): boolean {
  // The start pages are current only on themselves; a section also on its sub-pages.
  if (to === "/" || to === "/admin") return pathname === to;
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Long labels such as "Följesedel/Leveransreklamation" may wrap after a slash. */
const labelHtml = (label: string) => escapeHtml(label).split("/").join("/<wbr>");

function itemsHtml(items: MenuItem[], current: ReadonlySet<string>): string {
  const li = items.map((item) =>
    item.children
      ? `<li><span class="nav-group">${escapeHtml(item.label)}</span>${itemsHtml(item.children, current)}</li>`
      : // data-discover: Remix learns these routes after hydration, as it does for a Link.
        `<li><a href="${escapeHtml(item.to)}"${current.has(item.to) ? ' aria-current="page"' : ""} data-discover="true">${labelHtml(item.label)}</a></li>`,
  );
  return `<ul>${li.join("")}</ul>`;
}

function leaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => (item.children ? leaves(item.children) : [item]));
}

// The menu's markup differs only in which links are current, so it is made once per
// menu and current set, and React sends it as one string instead of ~100 elements.
const made = new WeakMap<MenuItem[], Map<string, string>>();

function menuHtml(items: MenuItem[], pathname: string): string {
  const current = new Set(leaves(items).filter((item) => isCurrent(pathname, item.to)).map((item) => item.to));
  const key = [...current].join(" ");
  let byCurrent = made.get(items);
  if (!byCurrent) made.set(items, (byCurrent = new Map()));
  let html = byCurrent.get(key);
  if (html === undefined) byCurrent.set(key, (html = itemsHtml(items, current)));
  return html;
}

/**
 * The menu's links are plain `<a>` elements rather than one `<NavLink>` each: the
 * menu is on every page twice, and 32 NavLinks were a sixth of the server time of
 * the returns page (bench/RESULTS.md, B1; docs/decisions/010-statement-cache.md §3). With JavaScript, this one handler makes
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
 * without links (an imperative alert is pending), with `children`: what resolves the lock.
 */
export function Nav({ items, locked = false, children }: { items: MenuItem[]; locked?: boolean; children?: React.ReactNode }) {
  const { pathname } = useLocation();
  const onClick = useMenuClicks();
  if (locked) {
    return (
      <nav className="nav nav-locked" aria-label="Meny">
        <p>Menyn är låst tills det som krävs är gjort.</p>
        {children}
      </nav>
    );
  }
  const html = { __html: menuHtml(items, pathname) };
  // The click handler only speeds up what the links already do; the keyboard follows them as links.
  return (
    <>
      <details className="nav-mobile">
        <summary>Meny</summary>
        <nav className="nav" aria-label="Meny" onClick={onClick} dangerouslySetInnerHTML={html} />
      </details>
      <nav className="nav nav-wide" aria-label="Huvudmeny" onClick={onClick} dangerouslySetInnerHTML={html} />
    </>
  );
}
