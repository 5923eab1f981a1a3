import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { pageParam } from "~/lib/paging";
import { Form, Link, data, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { BUNDLE_PAGE_SIZE as PAGE_SIZE } from "~/catalog/index";
import { addDays, isValidDate, today } from "~/lib/dates";
import { BundleChangeError, changeBundleNumber, customerExists, deleteLabelBlock, listChangeableBundles, listLabelBlocks, searchBundleContents } from "~/features/bundles/index.server";
import { FieldErrors } from "~/ui/field";
import { RowAction } from "~/ui/row-action";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Buntar – Returportalen" }];

// The tabs are URL state (?flik=…), plain links, so they work without JavaScript.
const TABS = [
  { id: "block", label: "Buntblock" },
  { id: "innehall", label: "Buntinnehåll" },
  { id: "andra", label: "Ändra Buntnummer" },
] as const;
type Tab = (typeof TABS)[number]["id"];

function customerParam(v: string | null): number | null {
  return v && /^\d{1,5}$/.test(v.trim()) ? Number(v.trim()) : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const params = new URL(request.url).searchParams;
  const tab: Tab = TABS.some((t) => t.id === params.get("flik")) ? (params.get("flik") as Tab) : "block";
  const raw = params.get("kund");
  const customerId = customerParam(raw);
  const page = pageParam(params.get("sida"));
  const base = { tab, customerId, customerError: null as string | null, page };
  if (raw !== null && raw.trim() !== "" && customerId === null) base.customerError = "Kundnummer är 1–5 siffror.";
  const known = customerId !== null && (await customerExists(customerId));
  if (customerId !== null && !known) base.customerError = `Kund ${customerId} finns inte.`;
  const from = params.get("fran") && isValidDate(params.get("fran")!) ? params.get("fran")! : addDays(today(), -30);
  const to = params.get("till") && isValidDate(params.get("till")!) ? params.get("till")! : today();
  const statusParam = params.get("status");
  const status = statusParam === "open" || statusParam === "closed" ? statusParam : "all";
  const titleParam = params.get("titel");
  const title = titleParam === "AB" || titleParam === "EX" ? titleParam : undefined;
  const numberParam = params.get("bunt");
  const number = numberParam && /^\d{1,5}$/.test(numberParam) ? Number(numberParam) : undefined;
  const filters = { from, to, status, title: title ?? "", number: number ?? "" };
  if (!known) return { ...base, filters, blocks: null, contents: null, changeable: null };
  if (tab === "block") return { ...base, filters, blocks: await listLabelBlocks(customerId!), contents: null, changeable: null };
  if (tab === "innehall") {
    const contents = await searchBundleContents({ customerId: customerId!, from, to, status, title, number, page });
    return { ...base, filters, blocks: null, contents, changeable: null };
  }
  return { ...base, filters, blocks: null, contents: null, changeable: await listChangeableBundles(customerId!, page) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  const form = await request.formData();
  const customerId = customerParam(String(form.get("kund") ?? ""));
  if (customerId === null) throw new Response("Kundnummer saknas.", { status: 400 });
  const intent = form.get("intent");
  if (intent === "delete-block") {
    const blockId = parseId(form.get("blockId"));
    const result = blockId === null ? "not-found" : await deleteLabelBlock(customerId, blockId, actor);
    if (result === "not-found") throw new Response("Blocket finns inte.", { status: 404 });
    if (result === "in-use") {
      return data({ intent, blockId, error: "Blocket kan inte tas bort: buntnummer i blocket används redan." }, { status: 400 });
    }
    return redirectWithToast(request, `/admin/bundles?flik=block&kund=${customerId}`, "Buntblocket borttaget.");
  }
  if (intent === "change") {
    const bundleId = parseId(form.get("bundleId"));
    const value = String(form.get("newNumber") ?? "").trim();
    const page = Math.max(1, Number(form.get("sida")) || 1);
    try {
      if (!/^\d{1,5}$/.test(value)) throw new BundleChangeError("Ange ett nytt buntnummer (1–99999).");
      if (bundleId === null) throw new BundleChangeError("Bunten finns inte hos kunden.");
      await changeBundleNumber(customerId, bundleId, Number(value), actor);
    } catch (e) {
      if (e instanceof BundleChangeError) return data({ intent, bundleId, value, error: e.message }, { status: 400 });
      throw e;
    }
    return redirectWithToast(request, `/admin/bundles?flik=andra&kund=${customerId}&sida=${page}`, `Bunten har nu nummer ${value}.`);
  }
  throw new Response("Okänd åtgärd.", { status: 400 });
}

function Pager({ total, page }: { total: number; page: number }) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (pages <= 1) return null;
  const link = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("sida", String(p));
    return `?${next}`;
  };
  return (
    <nav className="actions" aria-label="Sidor">
      {page > 1 ? <Link to={link(page - 1)}>Föregående</Link> : null}
      <span>
        Sida {page} av {pages}
      </span>
      {page < pages ? <Link to={link(page + 1)}>Nästa</Link> : null}
    </nav>
  );
}

export default function BundlesAdmin() {
  const { tab, customerId, customerError, page, filters, blocks, contents, changeable } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Buntar</h1>
      <nav className="tabs" aria-label="Flikar">
        {TABS.map((t) => (
          <Link key={t.id} to={`?flik=${t.id}${customerId ? `&kund=${customerId}` : ""}`} aria-current={tab === t.id ? "page" : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      <Form method="get" className="card filters">
        <input type="hidden" name="flik" value={tab} />
        <div className="form-row">
          <div className="field">
            <label htmlFor="kund">Kundnummer</label>
            <input id="kund" name="kund" type="text" inputMode="numeric" defaultValue={customerId ?? ""} aria-invalid={customerError ? true : undefined} aria-describedby={customerError ? "kund-error" : undefined} />
            <FieldErrors id="kund-error" errors={customerError ? [customerError] : undefined} />
          </div>
          {tab === "innehall" ? (
            <>
              <div className="field">
                <label htmlFor="fran">Från</label>
                <input id="fran" name="fran" type="date" defaultValue={filters.from} />
              </div>
              <div className="field">
                <label htmlFor="till">Till</label>
                <input id="till" name="till" type="date" defaultValue={filters.to} />
              </div>
              <div className="field">
                <label htmlFor="status">Status</label>
                <select id="status" name="status" defaultValue={filters.status}>
                  <option value="all">Alla</option>
                  <option value="open">Öppen</option>
                  <option value="closed">Stängd</option>
                </select>
              </div>
              <div className="field">
                <label htmlFor="titel">Titel</label>
                <select id="titel" name="titel" defaultValue={filters.title}>
                  <option value="">AB och EX</option>
                  <option value="AB">AB</option>
                  <option value="EX">EX</option>
                </select>
              </div>
              <div className="field">
                <label htmlFor="bunt">Buntnummer</label>
                <input id="bunt" name="bunt" type="text" inputMode="numeric" defaultValue={filters.number} />
              </div>
            </>
          ) : null}
        </div>
        <button type="submit" className="primary">
          Sök
        </button>
      </Form>

      {blocks ? (
        <section aria-label="Buntblock">
          {actionData && "blockId" in actionData ? (
            <p className="field-error" role="alert">
              {actionData.error}
            </p>
          ) : null}
          <TableOrEmpty empty={blocks.length === 0} emptyText="Kunden har inga buntblock.">
            <thead>
              <tr>
                <th>Från datum</th>
                <th>Till datum</th>
                <th className="num">Från nr</th>
                <th className="num">Till nr</th>
                <th className="num">Oanvända</th>
                <th>Status</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {blocks.map((b) => (
                <tr key={b.id}>
                  <td>{b.fromDate}</td>
                  <td>{b.toDate}</td>
                  <td className="num">{b.fromNumber}</td>
                  <td className="num">{b.toNumber}</td>
                  <td className="num">{b.numberUnused}</td>
                  <td>{b.status}</td>
                  <td>
                    <RowAction intent="delete-block" fields={{ kund: customerId!, blockId: b.id }} label="Ta bort" ariaLabel={`Ta bort block ${b.fromNumber}–${b.toNumber}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </TableOrEmpty>
        </section>
      ) : null}

      {contents ? (
        <section aria-label="Buntinnehåll">
          {contents.bundles.length === 0 ? <p>Inga buntar hittades.</p> : null}
          {contents.bundles.map((b) => (
            <article key={b.id} className="card">
              <h2>
                Bunt {b.number} – {b.open ? "Öppen" : `Stängd${b.closedDate ? ` ${b.closedDate}` : ""}`} ({b.type === 0 ? "Huvudtidningar" : "Bilagor"})
              </h2>
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th>Datum</th>
                      <th>Tidning</th>
                      <th className="num">Returer</th>
                    </tr>
                  </thead>
                  <tbody>
                    {b.returns.map((r, i) => (
                      <tr key={i}>
                        <td>{r.deliveryDate}</td>
                        <td>{r.paper}</td>
                        <td className="num">{r.amount}</td>
                      </tr>
                    ))}
                    <tr>
                      <th colSpan={2}>Totalt</th>
                      <th className="num">{b.total}</th>
                    </tr>
                  </tbody>
                </table>
              </div>
            </article>
          ))}
          <Pager total={contents.total} page={page} />
        </section>
      ) : null}

      {changeable ? (
        <section aria-label="Ändra Buntnummer">
          <TableOrEmpty empty={changeable.bundles.length === 0} emptyText="Kunden har inga buntar.">
            <thead>
              <tr>
                <th className="num">Bunt</th>
                <th>Typ</th>
                <th>Status</th>
                <th>Nytt buntnummer</th>
              </tr>
            </thead>
            <tbody>
              {changeable.bundles.map((b) => {
                const failed = actionData && "bundleId" in actionData && actionData.bundleId === b.id ? actionData : null;
                const inputId = `nytt-${b.id}`;
                return (
                  <tr key={b.id}>
                    <td className="num">{b.number}</td>
                    <td>{b.type === 0 ? "Huvudtidningar" : "Bilagor"}</td>
                    <td>{b.open ? "Öppen" : "Stängd"}</td>
                    <td>
                      <Form method="post" className="inline-actions">
                        <CsrfInput />
                        <input type="hidden" name="kund" value={customerId!} />
                        <input type="hidden" name="bundleId" value={b.id} />
                        <input type="hidden" name="sida" value={page} />
                        <label htmlFor={inputId} className="visually-hidden">
                          Nytt buntnummer för bunt {b.number}
                        </label>
                        <input
                          id={inputId}
                          name="newNumber"
                          type="text"
                          inputMode="numeric"
                          size={6}
                          defaultValue={failed && "value" in failed ? failed.value : ""}
                          aria-invalid={failed ? true : undefined}
                          aria-describedby={failed ? `${inputId}-error` : undefined}
                        />
                        <button type="submit" name="intent" value="change" aria-label={`Spara nytt nummer för bunt ${b.number}`}>
                          Spara
                        </button>
                        <FieldErrors id={`${inputId}-error`} errors={failed ? [failed.error] : undefined} />
                      </Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </TableOrEmpty>
          <Pager total={changeable.total} page={page} />
        </section>
      ) : null}
      {customerId === null && !customerError ? <p>Sök på kundnummer.</p> : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
