import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { config } from "~/config.server";
import { addMonths, today } from "~/lib/dates";
import { journalMonthLabel } from "~/features/deliveries/index.server";

export const meta: MetaFunction = () => [{ title: "Tidningsjournal – Returportalen" }];

/** The months offered: this one and the two before (deliveries are kept about 90 days). */
const MONTHS_BACK = 2;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  const first = `${today().slice(0, 7)}-01`;
  const months = Array.from({ length: MONTHS_BACK + 1 }, (_, i) => {
    const value = addMonths(first, -i).slice(0, 7);
    return { value, label: journalMonthLabel(value) };
  });
  return { months, webshopUrl: config.webshopUrl };
}

export default function Journal() {
  const { months, webshopUrl } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Tidningsjournal</h1>
      <p className="intro">
        Tidningsjournalen är gratis att ladda ner som PDF. Den visar dina tidningar dag för dag under en månad, med levererat,
        returer och sålda exemplar.
      </p>
      {/* A GET form to a file: reloadDocument lets the browser download it. */}
      <Form method="get" action="/journal.pdf" reloadDocument className="card form-card">
        <div className="field">
          <label htmlFor="manad">Månad</label>
          <select id="manad" name="manad" defaultValue={months[0].value}>
            {months.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary">
          Ladda ner tidningsjournal
        </button>
      </Form>
      <h2>Tryckt tidningsjournal</h2>
      <p>
        Vill du hellre ha en tryckt tidningsjournal kan du beställa den i webbshoppen till självkostnadspris.{" "}
        <a href={webshopUrl} rel="noopener noreferrer">
          Till webbshoppen
        </a>
      </p>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
