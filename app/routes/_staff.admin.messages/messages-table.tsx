import { Form, Link, useNavigate, useSearchParams } from "@remix-run/react";
import { MESSAGE_TYPES } from "~/features/messages";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { Pager } from "~/ui/pager";
import { SortHeader, type Sort } from "~/ui/sort";
import { TableOrEmpty } from "~/ui/table";

type Row = { id: number; type: number; header: string; startDate: string; stopDate: string; customerCount: number; targets: string };
type List = { rows: Row[]; total: number; page: number; pages: number };
type Column = "typ" | "rubrik" | "fran" | "till";

const TYPE_LABEL: Record<number, string> = Object.fromEntries(MESSAGE_TYPES.map((t) => [t.id, t.label]));

const title = (m: Row) => m.header || `meddelande ${m.id}`;

/**
 * The saved messages: searched, sorted and paged in the URL (a view can be shared and
 * Back works); each row names its targets ("Alla" or the customer numbers). Clicking a row
 * (or its heading) edits it; Ta bort asks first.
 */
export function MessagesTable({ list, sort, search, selectedId }: { list: List; sort: Sort<Column>; search: string; selectedId: number | null }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const confirming = useConfirming();
  const editLink = (id: number) => {
    const next = new URLSearchParams(params);
    next.delete("bekrafta");
    next.set("id", String(id));
    return `/admin/messages?${next}`;
  };
  const toDelete = list.rows.find((m) => confirming === `meddelande-${m.id}`);
  return (
    <>
      <Form method="get" action="/admin/messages" className="actions" role="search" aria-label="Sök meddelanden">
        <div className="field">
          <label htmlFor="message-search">Sök i rubrik och innehåll</label>
          <input id="message-search" name="sok" type="search" defaultValue={search} maxLength={200} />
        </div>
        {params.get("sortera") ? <input type="hidden" name="sortera" value={params.get("sortera")!} /> : null}
        {params.get("ordning") ? <input type="hidden" name="ordning" value={params.get("ordning")!} /> : null}
        <button type="submit">Sök</button>
        {search ? <Link to="/admin/messages">Visa alla</Link> : null}
      </Form>
      <p aria-live="polite">{search ? `${list.total} meddelanden matchar "${search}".` : `${list.total} meddelanden.`}</p>
      {toDelete ? (
        <ConfirmDialog title="Ta bort meddelandet?" intent="delete" fields={{ id: toDelete.id }} confirmLabel="Ta bort meddelandet">
          <p>
            "{toDelete.header || "(utan rubrik)"}" ({TYPE_LABEL[toDelete.type] ?? toDelete.type}, {toDelete.startDate}–{toDelete.stopDate}, till {toDelete.targets})
            tas bort och visas inte längre för kunderna.
          </p>
        </ConfirmDialog>
      ) : null}
      <TableOrEmpty empty={list.rows.length === 0} emptyText={search ? "Inga meddelanden matchar sökningen." : "Inga meddelanden."}>
        <thead>
          <tr>
            <SortHeader column="typ" sort={sort}>
              Typ
            </SortHeader>
            <SortHeader column="rubrik" sort={sort}>
              Rubrik
            </SortHeader>
            <SortHeader column="fran" sort={sort}>
              Från
            </SortHeader>
            <SortHeader column="till" sort={sort}>
              Till
            </SortHeader>
            <th scope="col">Mottagare</th>
            <th scope="col">Åtgärd</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((m) => (
            <tr
              key={m.id}
              className={selectedId === m.id ? "selected clickable" : "clickable"}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest("a,button,form")) return;
                navigate(editLink(m.id));
              }}
            >
              <td>{TYPE_LABEL[m.type] ?? String(m.type)}</td>
              <td className="text">
                <Link to={editLink(m.id)} aria-label={`Redigera ${title(m)}`}>
                  {m.header || "(utan rubrik)"}
                </Link>
              </td>
              <td className="date">{m.startDate}</td>
              <td className="date">{m.stopDate}</td>
              <td>{m.targets}</td>
              <td>
                <ConfirmLink confirm={`meddelande-${m.id}`} label="Ta bort" ariaLabel={`Ta bort ${title(m)}`} className="link-button" />
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <Pager page={list.page} pages={list.pages} />
    </>
  );
}
