// The frame of the pages shown outside the portal's layouts (login, its code step, the
// closed app): the brand link in the header and one narrow column.
import type { ReactNode } from "react";

export function BarePage({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="site-header">
        <a href="/" className="brand">
          Returportalen
        </a>
      </header>
      <main id="main" tabIndex={-1} className="page narrow">{children}</main>
    </>
  );
}
