import { getFormProps, useForm } from "@conform-to/react";
import { pageParam } from "~/lib/paging";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { InvoiceLineError, InvoiceLineSchema, deleteDraft, deleteWaiting, getDraft, listDrafts, listWaiting, saveDraft, sendDrafts, OrdersError, applyOrders, deleteOrderFile, deleteOrderLine, listOrderFiles, parseOrdersFile, transferOrders } from "~/features/invoices/index.server";
import { MAGAZINES, PAGE_SIZES, PRODUCT_GROUPS, VAT_OPTIONS } from "~/catalog/index";
import { formatKr, formatOre } from "~/lib/money";
import { MAX_CSV_BYTES, UploadTooLargeError, readUpload, uploadedFile } from "~/http/uploads.server";
import { Field, FieldErrors } from "~/ui/field";
import { RowAction } from "~/ui/row-action";
import { SaveActions } from "~/ui/save-actions";
import { SelectField } from "~/ui/select-field";
import { ActionsHeader } from "~/ui/table";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Fakturering – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const params = new URL(request.url).searchParams;
  const tab = params.get("flik") === "expo" ? "expo" : "poster";
  if (tab === "expo") return { tab, files: await listOrderFiles(), drafts: [], editing: null, waiting: null, per: "10", page: 1, adding: false };
  const perParam = params.get("per");
  const per = perParam === "alla" ? null : PAGE_SIZES.find((p) => String(p) === perParam) ?? 10;
  const page = pageParam(params.get("sida"));
  const editId = parseId(params.get("redigera"));
  const [drafts, waiting, editing] = await Promise.all([
    listDrafts(user.staffId),
    listWaiting(page, per),
    editId !== null ? getDraft(user.staffId, editId) : null,
  ]);
  return { tab, files: [], drafts, waiting, editing, per: per === null ? "alla" : String(per), page, adding: params.get("ny") === "1" || !!editing };
}

type UploadResult = { intent: "upload"; error: string; problems: string[] };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  let form: FormData;
  try {
    form = await readUpload(request, MAX_CSV_BYTES);
  } catch (e) {
    if (e instanceof UploadTooLargeError) {
      return data({ intent: "upload", error: "Fel: Filen är större än 5 MB.", problems: [] } satisfies UploadResult, { status: 400 });
    }
    throw e;
  }
  const intent = String(form.get("intent") ?? "");
  const id = parseId(form.get("id"));
  switch (intent) {
    case "save-line": {
      const submission = parseWithZod(form, { schema: InvoiceLineSchema });
      if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
      try {
        await saveDraft(user.staffId, submission.value, actor, id ?? undefined);
      } catch (e) {
        if (e instanceof InvoiceLineError) {
          const fieldErrors = Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, [v]]));
          return data({ intent, result: submission.reply({ fieldErrors }) }, { status: 400 });
        }
        throw e;
      }
      return redirectWithToast(request, "/admin/invoice", "Raden har lagts till i listan.");
    }
    case "delete-draft":
      if (id === null || !(await deleteDraft(user.staffId, id, actor))) throw new Response("Raden finns inte.", { status: 404 });
      return redirectWithToast(request, "/admin/invoice", "Raden borttagen.");
    case "send": {
      const sent = await sendDrafts(user.staffId, actor);
      return redirectWithToast(request, "/admin/invoice", sent ? `${sent.count} rader skickade till fakturering.` : "Det finns inga rader att skicka.");
    }
    case "delete-waiting":
      if (id === null || !(await deleteWaiting(id, actor))) throw new Response("Raden finns inte eller är redan fakturerad.", { status: 404 });
      return redirectWithToast(request, "/admin/invoice", "Raden borttagen.");
    case "upload": {
      const file = uploadedFile(form, "file");
      if (!file) return data({ intent, error: "Vänligen välj en fil först", problems: [] } satisfies UploadResult, { status: 400 });
      const bytes = new Uint8Array(await file.arrayBuffer());
      let text: string;
      try {
        // A CSV file is UTF-8 text: the name must say .csv and the content must decode.
        if (!/\.csv$/i.test(file.name) || bytes.includes(0)) throw new Error("not csv");
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return data({ intent, error: "Fel: Endast CSV-filer (.csv) kan laddas upp.", problems: [] } satisfies UploadResult, { status: 400 });
      }
      const parsed = parseOrdersFile(text);
      const problemText = (ps: { line: number; column: string; reason: string }[]) => ps.map((p) => `Rad ${p.line}: ${p.column}: ${p.reason}`);
      if (parsed.problems.length > 0) {
        return data({ intent, error: "Fel: Filen har felaktiga rader. Inget har sparats.", problems: problemText(parsed.problems) } satisfies UploadResult, { status: 400 });
      }
      try {
        const { count } = await applyOrders(parsed.rows, file.name.slice(0, 200), actor);
        return redirectWithToast(request, "/admin/invoice?flik=expo", `Framgång! ${count} beställningar har bearbetats`);
      } catch (e) {
        if (e instanceof OrdersError) {
          return data({ intent, error: "Fel: Filen har felaktiga rader. Inget har sparats.", problems: problemText(e.problems) } satisfies UploadResult, { status: 400 });
        }
        console.error(e);
        return data({ intent, error: "Något gick fel vid uppladdning", problems: [] } satisfies UploadResult, { status: 500 });
      }
    }
    case "transfer":
      try {
        await transferOrders(actor);
      } catch (e) {
        console.error(e);
        return redirectWithToast(request, "/admin/invoice?flik=expo", "Något gick fel vid Överföring till fakturering");
      }
      return redirectWithToast(request, "/admin/invoice?flik=expo", "Framgång! Överföring till fakturering lyckades.");
    case "delete-order":
      if (id === null || !(await deleteOrderLine(id, actor))) throw new Response("Raden finns inte eller är redan fakturerad.", { status: 404 });
      return redirectWithToast(request, "/admin/invoice?flik=expo", "Raden borttagen.");
    case "delete-order-file": {
      if (id === null) throw new Response("Filen finns inte.", { status: 404 });
      const n = await deleteOrderFile(id, actor);
      return redirectWithToast(request, "/admin/invoice?flik=expo", `Filens ${n} rader borttagna.`);
    }
  }
  throw new Response("Okänd åtgärd.", { status: 400 });
}

function Tabs({ tab }: { tab: string }) {
  return (
    <nav className="tabs" aria-label="Flikar">
      <Link to="?flik=poster" aria-current={tab === "poster" ? "page" : undefined}>
        Fakturaposter
      </Link>
      <Link to="?flik=expo" aria-current={tab === "expo" ? "page" : undefined}>
        Exponeringsutrustning
      </Link>
    </nav>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Line = Loaded["drafts"][number];

function LinesTable({ lines, caption, action }: { lines: Line[]; caption: string; action: (l: Line) => React.ReactNode }) {
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

function LineForm({ editing }: { editing: Line | null }) {
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: `line-${editing?.id ?? "new"}`,
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: editing
      ? {
          magazineTitle: editing.magazineTitle,
          customerNumber: String(editing.customerId),
          productGroup: editing.productGroup,
          articleId: editing.articleId,
          articleName: editing.articleName,
          editionId: editing.editionId === null ? "" : String(editing.editionId),
          productCode: editing.productCode,
          deliveryDate: editing.deliveryDate,
          deliveredAmount: String(editing.deliveredAmount),
          reclaimAmount: String(editing.reclaimAmount),
          grossPrice: formatOre(editing.grossPriceOre).replace(/\s/g, ""),
          nettoPrice: formatOre(editing.nettoPriceOre).replace(/\s/g, ""),
          vat: String(editing.vatPermille / 10),
          profitPercentage: String(editing.profitPercentage),
          ediReferenceText: editing.ediReferenceText,
        }
      : { vat: "25", reclaimAmount: "0" },
  });
  return (
    <section className="card dialog-panel" aria-labelledby="line-form-title">
      <h2 id="line-form-title">{editing ? "Ändra fakturarad" : "Lägg till fakturarad"}</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <div className="form-row">
          <SelectField label="Tidning" field={fields.magazineTitle} placeholder="Välj tidning" options={MAGAZINES.map((m) => ({ value: m, label: m }))} />
          <Field label="Kundnummer" field={fields.customerNumber} inputProps={{ inputMode: "numeric" }} />
          <SelectField label="Produktgrupp" field={fields.productGroup} placeholder="Välj produktgrupp" options={PRODUCT_GROUPS.map((m) => ({ value: m, label: m }))} />
        </div>
        <div className="form-row">
          <Field label="Artikel-id" field={fields.articleId} />
          <Field label="Artikelnamn" field={fields.articleName} />
          <Field label="Utgåva (id)" field={fields.editionId} inputProps={{ inputMode: "numeric" }} />
          <Field label="Produktkod" field={fields.productCode} />
        </div>
        <div className="form-row">
          <Field label="Leveransdatum" field={fields.deliveryDate} type="date" />
          <Field label="Levererat antal" field={fields.deliveredAmount} inputProps={{ inputMode: "numeric" }} />
          <Field label="Reklamerat antal" field={fields.reclaimAmount} inputProps={{ inputMode: "numeric" }} />
        </div>
        <div className="form-row">
          <Field label="Nettopris (kr)" field={fields.nettoPrice} inputProps={{ inputMode: "decimal" }} />
          <SelectField label="Moms (%)" field={fields.vat} options={VAT_OPTIONS.map((v) => ({ value: String(v), label: `${v},0` }))} />
          <Field label="Bruttopris (kr)" field={fields.grossPrice} inputProps={{ inputMode: "decimal" }} hint="Räknas ut för Exponeringsutrustning." />
          <Field label="Marginal (%)" field={fields.profitPercentage} inputProps={{ inputMode: "numeric" }} />
        </div>
        <Field label="EDI-referens" field={fields.ediReferenceText} />
        <SaveActions editing={!!editing} intent="save-line" newLabel="Lägg till">
          <Link to="?flik=poster">Avbryt</Link>
        </SaveActions>
      </Form>
    </section>
  );
}

function InvoiceLinesTab({ loaded }: { loaded: Loaded }) {
  const [params] = useSearchParams();
  const { drafts, waiting, editing, per, page, adding } = loaded;
  const pages = waiting && per !== "alla" ? Math.max(1, Math.ceil(waiting.total / Number(per))) : 1;
  const pageLink = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("sida", String(p));
    return `?${next}`;
  };
  const byFile = new Map<number, Line[]>();
  for (const l of waiting?.lines ?? []) byFile.set(l.fileId!, [...(byFile.get(l.fileId!) ?? []), l]);
  return (
    <>
      {adding ? <LineForm key={editing?.id ?? "new"} editing={editing} /> : (
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
              <RowAction intent="delete-draft" fields={{ id: l.id }} label="Ta bort" ariaLabel={`Ta bort ${l.articleName} för ${l.customerId}`} className="inline-actions">
                <Link to={`?flik=poster&redigera=${l.id}`} aria-label={`Ändra ${l.articleName} för ${l.customerId}`}>
                  Ändra
                </Link>
              </RowAction>
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
              <RowAction intent="delete-waiting" fields={{ id: l.id }} label="Ta bort" ariaLabel={`Ta bort väntande ${l.articleName} för ${l.customerId}`} />
            )}
          />
        </section>
      ))}
      {pages > 1 ? (
        <nav className="actions" aria-label="Sidor">
          {page > 1 ? <Link to={pageLink(page - 1)}>Föregående</Link> : null}
          <span>
            Sida {page} av {pages}
          </span>
          {page < pages ? <Link to={pageLink(page + 1)}>Nästa</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

function OrdersTab({ files }: { files: Loaded["files"] }) {
  const actionData = useActionData<typeof action>();
  const upload = actionData && "problems" in actionData ? actionData : null;
  return (
    <>
      <section className="card" aria-labelledby="upload-title">
        <h2 id="upload-title">Ladda upp beställningar (CSV)</h2>
        <Form method="post" encType="multipart/form-data">
          <CsrfInput />
          <div className="field">
            <label htmlFor="file">Fil</label>
            <input id="file" name="file" type="file" accept=".csv,text/csv" aria-describedby="file-hint" />
            <small id="file-hint" className="hint">
              Kolumner: customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger (pris i öre, högst 5 MB).
            </small>
          </div>
          {upload ? (
            <div className="field-error" role="alert">
              <p>{upload.error}</p>
              {upload.problems.length > 0 ? (
                <ul>
                  {upload.problems.slice(0, 100).map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <button type="submit" name="intent" value="upload" className="primary">
            Ladda upp
          </button>
        </Form>
      </section>
      <Form method="post" className="actions">
        <CsrfInput />
        <button type="submit" name="intent" value="transfer" className="primary" disabled={!files.some((f) => f.lines.some((l) => !l.transferredAt))}>
          Överför till fakturering
        </button>
      </Form>
      {files.length === 0 ? <p>Inga uppladdade rader.</p> : null}
      {files.map((f) => (
        <section key={f.fileId} aria-label={`Fil ${f.filename}`}>
          <h3>
            {f.filename} ({f.lines.length} rader)
          </h3>
          <RowAction intent="delete-order-file" fields={{ id: f.fileId }} label="Ta bort filen" ariaLabel={`Ta bort filen ${f.filename}`} className="actions" />
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Kund</th>
                  <th>Datum</th>
                  <th>Artikel</th>
                  <th>Beskrivning</th>
                  <th className="num">Antal</th>
                  <th className="num">Pris</th>
                  <th>Reskontra</th>
                  <th>Status</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {f.lines.map((l) => (
                  <tr key={l.id}>
                    <td>{l.customerId}</td>
                    <td>{l.orderDate}</td>
                    <td>{l.articleNumber}</td>
                    <td>{l.articleDescription}</td>
                    <td className="num">{l.amount}</td>
                    <td className="num">{formatKr(l.priceOre)}</td>
                    <td>{l.ledger}</td>
                    <td>{l.transferredAt ? "Överförd" : "Ej överförd"}</td>
                    <td>
                      <RowAction intent="delete-order" fields={{ id: l.id }} label="Ta bort" ariaLabel={`Ta bort rad ${l.articleNumber} för ${l.customerId}`} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}

export default function InvoiceAdmin() {
  const loaded = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Fakturering</h1>
      <Tabs tab={loaded.tab} />
      {loaded.tab === "expo" ? <OrdersTab files={loaded.files} /> : <InvoiceLinesTab loaded={loaded} />}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
