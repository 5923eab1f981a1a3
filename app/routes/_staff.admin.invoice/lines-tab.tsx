// 'Fakturaposter': the user's new lines (drafts) with the line form, 'Skicka', and the
// sent lines waiting for the invoice run, per file and paged.
import { Form, Link, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { PAGE_SIZES } from "~/catalog";
import type { listWaiting } from "~/features/invoices/index.server";
import type { FormReply } from "~/http/form.server";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { Pager, pageCount } from "~/ui/pager";
import { ConfirmAction } from "~/ui/confirm";
import { ActionsHeader } from "~/ui/table";
import { LineForm, type Line } from "./line-form";

type Props = {
  drafts: Line[];
  waiting: Awaited<ReturnType<typeof listWaiting>> | null;
  editing: Line | null;
  per: string;
  page: number;
  adding: boolean;
};

/** A line in words, for the confirmation before it is removed. */
const lineText = (l: Line) => `${l.articleName} för kund ${l.customerId}, ${l.deliveryDate}: ${formatKr(l.grossPriceOre)}.`;

function LinesTable({ lines, caption, action }: { lines: Line[]; caption: string; action: (l: Line) => ReactNode }) {
  return (
    <div className="table-wrap">
      <table aria-label={caption}>
        <thead>
          <tr>
            <th>Kund</th>
            <th>Tidning</th>
            <th>Produktgrupp</th>
            <th>Artikel</th>
            <th>Datum</th>
            <th className="num">Levererat</th>
            <th className="num">Reklamerat</th>
            <th className="num">Nettopris</th>
            <th className="num">Bruttopris</th>
            <th className="num">Moms</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.id}>
              <td>{l.customerId}</td>
              <td>{l.magazineTitle}</td>
              <td>{l.productGroup}</td>
              <td>
                {l.articleName}
                {l.articleId ? ` (${l.articleId})` : ""}
              </td>
              <td>{l.deliveryDate}</td>
              <td className="num">{l.deliveredAmount}</td>
              <td className="num">{l.reclaimAmount}</td>
              <td className="num">{formatKr(l.nettoPriceOre)}</td>
              <td className="num">{formatKr(l.grossPriceOre)}</td>
              <td className="num">{l.vatPermille / 10} %</td>
              <td>{action(l)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function InvoiceLinesTab({ drafts, waiting, editing, per, page, adding }: Props) {
  const reply = useActionData<FormReply>();
  const rowRefused = reply?.initialValue?.intent === "save-line" ? undefined : reply?.error?.[""] ?? undefined;
  const pages = waiting && per !== "alla" ? pageCount(waiting.total, Number(per)) : 1;
  const byFile = new Map<number, Line[]>();
  for (const l of waiting?.lines ?? []) byFile.set(l.fileId!, [...(byFile.get(l.fileId!) ?? []), l]);
  return (
    <>
      <FieldErrors errors={rowRefused} />
      {adding ? (
        <LineForm key={editing?.id ?? "new"} editing={editing} />
      ) : (
        <p>
          <Link to="?flik=poster&ny=1" className="button primary">
            Lägg till rad
          </Link>
        </p>
      )}
      <h2>Nya rader</h2>
      {drafts.length === 0 ? (
        <p>Inga nya rader.</p>
      ) : (
        <>
          <LinesTable
            lines={drafts}
            caption="Nya rader"
            action={(l) => (
              <span className="inline-actions">
                <Link to={`?flik=poster&redigera=${l.id}`} aria-label={`Ändra ${l.articleName} för ${l.customerId}`}>
                  Ändra
                </Link>
                <ConfirmAction
                  confirm={`rad-${l.id}`}
                  label="Ta bort"
                  ariaLabel={`Ta bort ${l.articleName} för ${l.customerId}`}
                  className="link-button"
                  title="Ta bort raden?"
                  intent="delete-draft"
                  fields={{ id: l.id }}
                  confirmLabel="Ta bort raden"
                >
                  <p>{lineText(l)}</p>
                </ConfirmAction>
              </span>
            )}
          />
          <Form method="post" className="actions">
            <CsrfInput />
            <button type="submit" name="intent" value="send" className="primary">
              Skicka
            </button>
          </Form>
        </>
      )}
      <h2>Väntar på fakturering</h2>
      <Form method="get" className="actions">
        <input type="hidden" name="flik" value="poster" />
        <label htmlFor="per">Rader per sida</label>
        <select id="per" name="per" defaultValue={per}>
          {[...PAGE_SIZES.map(String), "alla"].map((p) => (
            <option key={p} value={p}>
              {p === "alla" ? "Alla" : p}
            </option>
          ))}
        </select>
        <button type="submit">Visa</button>
      </Form>
      {byFile.size === 0 ? <p>Inga rader väntar.</p> : null}
      {[...byFile].map(([fileId, lines]) => (
        <section key={fileId} aria-label={`Fil ${fileId}`}>
          <h3>Fil {fileId}</h3>
          <LinesTable
            lines={lines}
            caption={`Fil ${fileId}`}
            action={(l) => (
              <ConfirmAction
                confirm={`vantande-${l.id}`}
                label="Ta bort"
                ariaLabel={`Ta bort väntande ${l.articleName} för ${l.customerId}`}
                className="link-button"
                title="Ta bort den väntande raden?"
                intent="delete-waiting"
                fields={{ id: l.id }}
                confirmLabel="Ta bort raden"
              >
                <p>{lineText(l)} Den faktureras inte.</p>
              </ConfirmAction>
            )}
          />
        </section>
      ))}
      <Pager page={page} pages={pages} />
    </>
  );
}
