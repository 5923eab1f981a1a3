// Distribution's filter form (GET): the period, dates to leave out, distributors and
// editions; nothing chosen means all.
import { Form } from "@remix-run/react";
import { datesOf, type Period } from "~/lib/period";
import { PlainField } from "~/ui/field";

type Props = {
  raw: { from: string; to: string };
  errors: { from?: string; to?: string } | null;
  query: (Period & { distributorIds: number[]; editions: { titleId: number; editionId: number }[]; excludeDates: string[] }) | null;
  distributors: { id: number; name: string }[];
  editions: { titleId: number; editionId: number; description: string }[];
  /** The customer tables' search and order, kept when the filters are sent again. */
  view: { search: string; sort: { column: string; descending: boolean }; sortChosen: boolean };
  exportHref: string | null;
};

export function DistributionFilters({ raw, errors, query, distributors, editions, view, exportHref }: Props) {
  const selectedDistributors = new Set(query?.distributorIds ?? []);
  const selectedEditions = new Set((query?.editions ?? []).map((e) => `${e.titleId}:${e.editionId}`));
  const excluded = new Set(query?.excludeDates ?? []);
  const rangeDates = query ? datesOf(query) : [];
  return (
    <Form method="get" className="card filter-form">
      <div className="field-row">
        <PlainField key={`from-${raw.from}`} id="dist-from" name="fran" label="Från" type="date" defaultValue={raw.from} error={errors?.from} />
        <PlainField key={`to-${raw.to}`} id="dist-to" name="till" label="Till" type="date" defaultValue={raw.to} error={errors?.to} />
        <PlainField key={`sok-${view.search}`} id="dist-search" name="sok" label="Sök kund (nummer, namn, ort)" type="search" defaultValue={view.search} />
      </div>
      {view.sortChosen ? (
        <>
          <input type="hidden" name="sortera" value={view.sort.column} />
          <input type="hidden" name="ordning" value={view.sort.descending ? "fallande" : "stigande"} />
        </>
      ) : null}
      {rangeDates.length > 1 ? (
        <details open={excluded.size > 0}>
          <summary>Exkludera datum</summary>
          <fieldset className="checks">
            <legend className="visually-hidden">Exkludera datum</legend>
            {rangeDates.map((d) => (
              <label key={d}>
                <input type="checkbox" name="utom" value={d} defaultChecked={excluded.has(d)} /> {d}
              </label>
            ))}
          </fieldset>
        </details>
      ) : null}
      {distributors.length > 1 ? (
        <details open={selectedDistributors.size > 0}>
          <summary>Utb:er</summary>
          <fieldset className="checks">
            <legend className="visually-hidden">Utb:er (inga valda: alla)</legend>
            {distributors.map((d) => (
              <label key={d.id}>
                <input type="checkbox" name="utb" value={d.id} defaultChecked={selectedDistributors.has(d.id)} /> {d.name}
              </label>
            ))}
          </fieldset>
        </details>
      ) : null}
      <details open={selectedEditions.size > 0}>
        <summary>Utgåvor</summary>
        <fieldset className="checks">
          <legend className="visually-hidden">Utgåvor (inga valda: alla)</legend>
          {editions.map((e) => (
            <label key={`${e.titleId}:${e.editionId}`}>
              <input type="checkbox" name="utgava" value={`${e.titleId}:${e.editionId}`} defaultChecked={selectedEditions.has(`${e.titleId}:${e.editionId}`)} />{" "}
              {e.description}
            </label>
          ))}
        </fieldset>
      </details>
      <div className="actions">
        <button type="submit" className="primary">
          Visa
        </button>
        {exportHref ? (
          <a className="button" href={exportHref} download>
            Exportera alla till Excel
          </a>
        ) : null}
      </div>
    </Form>
  );
}
