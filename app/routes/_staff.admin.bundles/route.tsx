// Buntar (back-office 9): a customer's label blocks, bundle contents and bundle number
// changes, as three tabs in the URL (?flik=…). The parts sit beside this file.
import { BUNDLE_NUMBER, parseShortNumber } from "~/catalog";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { BUNDLE_ORDERS, BundleActionSchema, type BundleOrder } from "~/features/bundles";
import { changeBundleNumber, customerExists, deleteLabelBlock, listChangeableBundles, listLabelBlocks, searchBundleContents } from "~/features/bundles/index.server";
import { handleForm } from "~/http/form.server";
import { addDays, today } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { FieldErrors } from "~/ui/field";
import { OrderSelect } from "~/ui/sort";
import { TabStrip } from "~/ui/tabs";
import { BlocksSection } from "./blocks";
import { ContentsSection } from "./contents";
import { RenumberSection } from "./renumber";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Buntar – Returportalen" }];

const TABS = [
  { id: "block", label: "Buntblock" },
  { id: "innehall", label: "Buntinnehåll" },
  { id: "andra", label: "Ändra Buntnummer" },
] as const;
type Tab = (typeof TABS)[number]["id"];


const BUNDLES_SEARCH = {
  flik: param.oneOf(TABS.map((t) => t.id) as [Tab, ...Tab[]], "block"),
  /** The customer (1–5 digits, leading zeros allowed): null when typed but no number. */
  kund: param.ref(parseShortNumber),
  sida: param.page(),
  fran: param.date(),
  till: param.date(),
  status: param.oneOf(["all", "open", "closed"], "all"),
  titel: param.maybeOneOf(["AB", "EX"]),
  bunt: param.shortNumber(BUNDLE_NUMBER),
  sortera: param.oneOf(Object.keys(BUNDLE_ORDERS) as [BundleOrder, ...BundleOrder[]], "nummer-fallande"),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { flik: tab, kund, sida: page, fran, till, status, titel, bunt, sortera: order } = readSearch(request, BUNDLES_SEARCH);
  const customerId = kund ?? null;
  const base = { tab, customerId, customerError: null as string | null, periodError: null as string | null, page };
  if (kund === null) base.customerError = "Kundnummer är 1–5 siffror.";
  const known = customerId !== null && (await customerExists(customerId));
  if (customerId !== null && !known) base.customerError = `Kund ${customerId} finns inte.`;
  const from = fran ?? addDays(today(), -30);
  const to = till ?? today();
  const title = titel ?? undefined;
  const number = bunt ?? undefined;
  const filters = { from, to, status, title: title ?? "", number: number ?? "", order };
  const none = { blocks: null, contents: null, changeable: null };
  if (!known) return { ...base, filters, ...none };
  if (tab === "block") return { ...base, filters, ...none, blocks: await listLabelBlocks(customerId!) };
  if (tab === "innehall") {
    // The range picker's rule (back-office spec): the start may not come after the end.
    if (from > to) return data({ ...base, periodError: "Felaktig period", filters, ...none }, { status: 400 });
    const contents = await searchBundleContents({ customerId: customerId!, from, to, status, title, number, page, order });
    return { ...base, filters, ...none, contents };
  }
  return { ...base, filters, ...none, changeable: await listChangeableBundles(customerId!, page) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, BundleActionSchema, async (value) => {
    if (value.intent === "delete-block") {
      await deleteLabelBlock(value.kund, value.blockId, user.actor);
      return redirectWithToast(request, `/admin/bundles?flik=block&kund=${value.kund}`, "Buntblocket borttaget.");
    }
    if (value.bundleId === null) throw refuse.invalid("Bunten finns inte hos kunden.", { field: "newNumber" });
    await changeBundleNumber(value.kund, value.bundleId, value.newNumber, user.actor, value.was, value.invoiced);
    return redirectWithToast(request, `/admin/bundles?flik=andra&kund=${value.kund}&sida=${value.sida}`, `Bunten har nu nummer ${value.newNumber}.`);
  });
}

// A save refused because someone else changed the row (409) shows what is stored now.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

export default function BundlesAdmin() {
  const { search } = useLocation();
  const { tab, customerId, customerError, periodError, page, filters, blocks, contents, changeable } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Buntar</h1>
      <TabStrip tabs={TABS} current={tab} keep={["kund"]} label="Flikar" />
      {/* Keyed by the query and without form restoration, so after Back the fields show
          the search the results are for. */}
      <Form method="get" className="card filters" key={search} autoComplete="off">
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
                <input id="till" name="till" type="date" defaultValue={filters.to} aria-invalid={periodError ? true : undefined} aria-describedby={periodError ? "till-error" : undefined} />
                <FieldErrors id="till-error" errors={periodError ? [periodError] : undefined} />
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
              <OrderSelect id="sortera" orders={BUNDLE_ORDERS} value={filters.order} />
            </>
          ) : null}
        </div>
        <button type="submit" className="primary">
          Sök
        </button>
      </Form>

      {blocks ? <BlocksSection blocks={blocks} customerId={customerId!} /> : null}
      {contents ? <ContentsSection contents={contents} page={page} /> : null}
      {changeable ? <RenumberSection changeable={changeable} customerId={customerId!} page={page} /> : null}
      {customerId === null && !customerError ? <p>Sök på kundnummer.</p> : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
