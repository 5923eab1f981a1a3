import { BUNDLE_NUMBER, PAPER_TYPE_HEADING } from "~/catalog";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, data, useActionData, useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { handleForm } from "~/http/form.server";
import { refuse } from "~/lib/refusal";
import { redirectWithToast } from "~/auth/session.server";
import { config } from "~/config.server";
import { CLOSE_REFUSED, closeBundleSchema } from "~/features/bundles";
import { closeBundle, getBundle, listOpenBundles } from "~/features/bundles/index.server";
import { dayWord, dueText, reportButtonText } from "~/features/returns";
import { dueCountsOf, listPapers } from "~/features/returns/index.server";
import { weekdayName } from "~/features/supply";
import { openProposals } from "~/features/supply/index.server";
import { today } from "~/lib/dates";
import { BundleProgress } from "~/ui/bundle-progress";
import { BundleTable } from "~/ui/bundle-table";
import { UrlDialog } from "~/ui/url-dialog";
import { isFormReply, replyError } from "~/ui/form-reply";
import { useHydrated } from "~/ui/use-hydrated";
import { CsrfInput } from "~/ui/csrf";
import { param, readSearch } from "~/lib/search-params";

/** Spec 4: the close button stays busy 1.5 s and the dialog closes on success. */
const CLOSE_DELAY_MS = 1500;

// `?bunt=<number>`: the open bundle whose contents the dialog shows.
const RETURNS_SEARCH = { bunt: param.shortNumber(BUNDLE_NUMBER) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const { bunt: wanted } = readSearch(request, RETURNS_SEARCH);
  const on = today();
  const [bundles, bundle, papers, proposals] = await Promise.all([
    listOpenBundles(user.customerId),
    wanted === null ? null : getBundle(user.customerId, wanted),
    listPapers(user.customerId, 1, on),
    openProposals(user.customerId),
  ]);
  // The papers the returns form lists (the same 14 days the reminder counts), the ones due
  // today and tomorrow, and the nearest last return day still ahead: one query.
  const due = dueCountsOf(papers, on);
  const ahead = papers.filter((p) => !p.late).map((p) => p.deadline).sort();
  const report = { count: papers.length, nearest: ahead.length ? dayWord(ahead[0], on) : null };
  return {
    customer: { id: user.customerId, name: user.name, address: user.address, zip: user.zip, city: user.city },
    bundles,
    due,
    report,
    // The distributor's proposals of changed deliveries, until the shop answers (decision 037).
    proposals: proposals.map((c) => ({ id: c.id, text: `${c.paper}, ${c.weekday !== null ? weekdayName(c.weekday) : `den ${c.oneOffDate}`}: ${c.oldCopies} → ${c.requested} ex` })),
    // `?bunt=N` of a number the customer does not have shows 'Kan inte hitta bunt' rather than another's bundle.
    dialog: wanted === null ? null : { number: wanted, bundle },
    version: config.clientVersion,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, closeBundleSchema, async ({ bunt, js }) => {
    const closed = await closeBundle(user.customerId, bunt);
    if (!closed) throw refuse.invalid(CLOSE_REFUSED);
    if (js) return data({ closed: true as const });
    return redirectWithToast(request, "/", `Bunt #${bunt} är stängd.`);
  });
}

export default function StartPage() {
  const { customer, bundles, due, report, dialog, version, proposals } = useLoaderData<typeof loader>();
  // A close refused from the locked menu's "Stäng bunt N" (no dialog open) is said here.
  const actionData = useActionData<typeof action>();
  const closeError = !dialog && isFormReply(actionData) ? replyError(actionData) : null;
  return (
    <>
      <h1>Sammanfattning</h1>
      {closeError ? (
        <p className="field-error" role="alert">
          {closeError}
        </p>
      ) : null}
      {report.count > 0 ? (
        // The day's work first: one way to the returns form.
        <p className="day-work">
          {/* The form comes as HTML, painted as it arrives, as without JavaScript; its code is
              fetched once this page is interactive, for the form's own script (bench B12). */}
          <Link to="/rapportering/1" prefetch="render" reloadDocument className="button primary">
            {reportButtonText(report.count)}
          </Link>
          {report.nearest ? <span className="muted"> Närmaste sista returdag: {report.nearest}.</span> : null}
        </p>
      ) : (
        <p className="muted">Inga tidningar att rapportera just nu.</p>
      )}
      {due.today + due.tomorrow > 0 ? (
        // Unreported papers whose last return day is near, with the way to report them.
        <section aria-labelledby="due-returns" className="card due-returns">
          <h2 id="due-returns">Sista returdag</h2>
          <ul>
            {due.today > 0 ? (
              <li>
                <Link to="/rapportering/1">{dueText(due.today, "i dag")}</Link>
              </li>
            ) : null}
            {due.tomorrow > 0 ? (
              <li>
                <Link to="/rapportering/1">{dueText(due.tomorrow, "i morgon")}</Link>
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      {proposals.length > 0 ? (
        <section aria-labelledby="supply-proposals" className="card notice">
          <h2 id="supply-proposals">Förslag om ändrad leverans</h2>
          <ul>
            {proposals.map((p) => (
              <li key={p.id}>{p.text}</li>
            ))}
          </ul>
          <p>
            <Link to="/leverans">Svara i Leveransändring</Link>
          </p>
        </section>
      ) : null}
      <section aria-labelledby="open-bundles">
        <h2 id="open-bundles">Öppna buntar</h2>
        {bundles.length === 0 ? (
          <p>Inga öppna buntar</p>
        ) : (
          <ul className="bundle-chips">
            {bundles.map((b) => (
              <li key={b.number} className="bundle-chip">
                <Link to={`?bunt=${b.number}`} preventScrollReset>
                  Bunt #{b.number}
                </Link>
                <span className="muted">{PAPER_TYPE_HEADING[b.type]}</span>
                <BundleProgress total={b.total} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {dialog ? <BundleDialog key={dialog.number} dialog={dialog} /> : null}
      <section aria-labelledby="customer-info" className="card">
        <h2 id="customer-info">Kunduppgifter</h2>
        <dl className="facts">
          <dt>Namn</dt>
          <dd>{customer.name}</dd>
          <dt>Adress</dt>
          <dd>
            {customer.address}
            {customer.zip || customer.city ? `, ${customer.zip} ${customer.city}` : ""}
          </dd>
          <dt>Kundnummer</dt>
          <dd>{customer.id}</dd>
        </dl>
      </section>
      {/* The client version (spec 2.3) is for support, not a customer detail: a quiet line under them. */}
      <p className="muted app-version">Returportalen version {version}</p>
    </>
  );
}

type DialogData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["dialog"]>;

function BundleDialog({ dialog }: { dialog: DialogData }) {
  const { bundle, number } = dialog;
  const hydrated = useHydrated();
  const fetcher = useFetcher<typeof action>();
  const actionData = useActionData<typeof action>();
  const navigate = useNavigate();
  const closedNow = hydrated && fetcher.data !== undefined && "closed" in fetcher.data;
  useEffect(() => {
    if (!closedNow) return;
    const timer = setTimeout(() => navigate("/", { preventScrollReset: true }), CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [closedNow, navigate]);
  const answer = (hydrated ? fetcher.data : undefined) ?? actionData;
  const error = isFormReply(answer) ? replyError(answer) : null;
  const FormComponent = hydrated ? fetcher.Form : Form;
  return (
    <UrlDialog title={`Bunt #${number}`} closeTo="/">
      {!bundle ? (
        <p>Kan inte hitta bunt med id {number}</p>
      ) : (
        <>
          <p>
            {bundle.open && !closedNow ? <BundleProgress total={bundle.total} /> : <strong>Stängd</strong>}{" "}
            <span className="muted">({PAPER_TYPE_HEADING[bundle.type]})</span>
          </p>
          <BundleTable lines={bundle.lines} total={bundle.total} />
          {bundle.open ? (
            <FormComponent method="post" className="actions">
              <CsrfInput />
              <input type="hidden" name="bunt" value={bundle.number} />
              {hydrated ? <input type="hidden" name="js" value="1" /> : null}
              <button type="submit" name="intent" value="close" className="primary" disabled={fetcher.state !== "idle" || closedNow}>
                {fetcher.state !== "idle" || closedNow ? "Stänger…" : "Stäng bunt"}
              </button>
              {error ? (
                <span className="field-error" role="alert">
                  {error}
                </span>
              ) : null}
            </FormComponent>
          ) : null}
        </>
      )}
    </UrlDialog>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
