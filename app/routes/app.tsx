// The entry of the shut-down mobile app: public, it only points to the portal.
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { BarePage } from "~/ui/bare-page";

export const meta: MetaFunction = () => [{ title: "Appen är stängd – Returportalen" }];

export default function AppClosed() {
  return (
    <BarePage>
      <h1>Appen är stängd</h1>
      <p>Mobilappen för returrapportering har stängts och kan inte längre användas.</p>
      <p>Du rapporterar returer, ser följesedlar och beställer etiketter på webbplatsen i stället. Den fungerar i mobilens webbläsare och du loggar in med samma kundnummer och pinkod som förut.</p>
      <p>
        <Link to="/" className="button primary">
          Gå till Returportalen
        </Link>
      </p>
    </BarePage>
  );
}
