// Returrapportera (state 1) and Ändra/tillägg (state 2): the returns form of spec 4, 5.
// The confirm step (…/bekrafta) opens over it as a child route.
import { PrefetchRoute } from "~/ui/prefetch-route";
import { routeParam } from "~/http/params";
import { today } from "~/lib/dates";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, data, useActionData, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { requireRetailer } from "~/auth/guards.server";
import { formOwner, RESTORED_NOTICE, restoreCarriedForm } from "~/auth/carried.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirectWithToast } from "~/auth/session.server";
import { hasReturnsOfDay, listOpenBundles } from "~/features/bundles/index.server";
import { labelsOnHand } from "~/features/labels/index.server";
import { BUNDLE_NUMBER } from "~/catalog";
import { applyIntent, parseReportState, RETURN_MESSAGES, returnsFormSchema, withTypeBundle } from "~/features/returns";
import { defaultBundlesOf, latePolicyOf, listPapers, RETURN_ROWS, saveReturns } from "~/features/returns/index.server";
import { REFUSAL_STATUS, isRefusal } from "~/lib/refusal";
import { handleForm, retryHeaders } from "~/http/form.server";
import { ReturnsForm, type ReturnsAnswer } from "./returns-form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.state === 2 ? "Ändra/tillägg" : "Returrapportera"} – Returportalen` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = routeParam(params, "reportState", parseReportState);
  const [papers, openBundles, reportedToday] = await Promise.all([listPapers(user.customerId, state), listOpenBundles(user.customerId), hasReturnsOfDay(user.customerId, today())]);
  // Only a page with a paper past its last return day needs the distributor's policy.
  const latePolicy = papers.some((p) => p.late) ? await latePolicyOf(user.customerId) : ("reject" as const);
  const defaults = defaultBundlesOf(openBundles);
  // A paper type to report without an open bundle: its field names the labels on hand.
  const needsBundle = papers.some((p) => !openBundles.some((b) => b.type === p.type));
  const onHand = state === 1 && needsBundle ? await labelsOnHand(user.customerId) : null;
  // Said at the bundle field of a type without an open bundle (composed here: the page's script stays small).
  const labels = onHand ? `ta ett nytt nummer från dina returetiketter${onHand.series.length ? ` (${onHand.series.join(", ")})` : ""}` : null;
  // One-time token of this rendering of the form: a resubmission is recognised and not applied twice.
  const token = randomUUID();
  // A form posted after the session lapsed comes back filled in, once, for the same
  // customer; nothing is saved until Spara is pressed.
  const carried = await restoreCarriedForm(request, user.customerId);
  // customerId: the labels "Skanna" reads carry it; a label of another customer is refused in the browser (the server checks the bundle anyway).
  const customerId = user.customerId;
  // Whose form this is: a save posted after another shop logged in in this browser is kept for this one.
  const owner = formOwner(customerId);
  if (!carried) return { state, papers, openBundles, defaults, token, customerId, owner, today: today(), latePolicy, reportedToday, labels, restored: null, restoredNotice: null };
  const parsed = carried.form ? parseWithZod(carried.form, { schema: returnsFormSchema }) : null;
  const restored: ReturnsAnswer | null =
    parsed?.status === "success" ? { lines: parsed.value.lines, errors: {}, token, nonce: randomUUID() } : null;
  return data(
    { state, papers, openBundles, defaults, token, customerId, owner, today: today(), latePolicy, reportedToday, labels, restored, restoredNotice: restored ? RESTORED_NOTICE : null },
    { headers: { "Set-Cookie": carried.setCookie } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const state = routeParam(params, "reportState", parseReportState);
  return handleForm(request, returnsFormSchema, async ({ intent, token, lines, typeBundles }) => {
    const nonce = randomUUID();
    const typeMatch = /^bundle:([01])$/.exec(intent);
    if (typeMatch && state === 1) {
      // Without JavaScript "Byt" comes here: the type's untouched rows take the bundle, nothing saved.
      const type = Number(typeMatch[1]) as 0 | 1;
      const bundle = typeBundles[type];
      if (!BUNDLE_NUMBER.test(bundle) || Number(bundle) < 1)
        return data<ReturnsAnswer>({ lines, errors: {}, typeErrors: { [type]: RETURN_MESSAGES.unreasonableBundle }, typeBundles, token, nonce }, { status: 400 });
      const ofType = new Set((await listPapers(user.customerId, state)).filter((p) => p.type === type).map((p) => p.deliveryId));
      return data<ReturnsAnswer>({ lines: withTypeBundle(lines, ofType, bundle), errors: {}, typeBundles, token, nonce });
    }
    if (intent !== "save") {
      // Without JavaScript the row buttons come here: re-render what was typed, changed, nothing saved.
      const papers = await listPapers(user.customerId, state);
      const changed = applyIntent(lines, intent, new Set(papers.map((p) => p.deliveryId)));
      if (!changed) throw new Response("Okänd åtgärd.", { status: 400 });
      // Ny bunt: the new line's bundle field gets the focus when the page comes back.
      const added = changed.find((l) => !lines.some((o) => o.key === l.key));
      return data<ReturnsAnswer>({ lines: changed, errors: {}, typeBundles, token, nonce, ...(added ? { focus: added.key } : {}) });
    }
    if (state === 1) {
      // A type's bundle changed without Byt counts for the rows whose bundle field was left as it came.
      const pageDefaults = defaultBundlesOf(await listOpenBundles(user.customerId));
      const pageDefault = (type: 0 | 1) => (pageDefaults[type] ? String(pageDefaults[type]) : "");
      const changed = ([0, 1] as const).filter((type) => typeBundles[type] !== "" && typeBundles[type] !== pageDefault(type));
      const bad = changed.filter((type) => !BUNDLE_NUMBER.test(typeBundles[type]) || Number(typeBundles[type]) < 1);
      if (bad.length)
        return data<ReturnsAnswer>(
          { lines, errors: {}, typeErrors: Object.fromEntries(bad.map((type) => [type, RETURN_MESSAGES.unreasonableBundle])), typeBundles, token, nonce },
          { status: 400 },
        );
      if (changed.length) {
        const papers = await listPapers(user.customerId, state);
        for (const type of changed) {
          const ofType = new Set(papers.filter((p) => p.type === type).map((p) => p.deliveryId));
          lines = withTypeBundle(lines, ofType, typeBundles[type], { pageDefault: pageDefault(type) });
        }
      }
    }
    try {
      await saveReturns(
        user.customerId,
        state,
        token,
        lines.map((l) => ({
          key: l.key,
          deliveryId: l.deliveryId,
          returnId: l.returnId,
          bundle: l.bundle,
          amount: l.amount,
          defaultBundle: l.dflt,
          shownAmount: l.fore,
        })),
      );
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // Nothing was written; every line comes back as typed, with the same token, so a later
      // try of this form is still applied once at most.
      const rows = RETURN_ROWS.of(error);
      // The whole form refused (nothing to save; a busy database: 503): its message over the form.
      if (!rows) return data<ReturnsAnswer>({ lines, errors: {}, formError: error.message, typeBundles, token, nonce }, { status: REFUSAL_STATUS[error.code], headers: retryHeaders(error) });
      // Refused lines, each with its message. A row someone else changed: the typed value
      // stays, its shown value becomes what is stored now (the message names it), so a
      // second Spara after checking it is the user's own change.
      const stored = rows.stored ?? {};
      const kept = lines.map((l) => (stored[l.key] !== undefined ? { ...l, fore: stored[l.key] } : l));
      // A paper another tab reported since (state 1) is no longer listed: keep its rows on the page.
      const listed = new Set((await listPapers(user.customerId, state)).map((p) => p.deliveryId));
      const missing = new Set(lines.map((l) => l.deliveryId).filter((id) => !listed.has(id)));
      const keptPapers = missing.size
        ? (await listPapers(user.customerId, state === 1 ? 2 : 1)).filter((p) => missing.has(p.deliveryId)).map((p) => ({ ...p, returns: [] }))
        : [];
      return data<ReturnsAnswer>({ lines: kept, errors: rows.errors, problems: rows.problems, typeBundles, token, nonce, keptPapers }, { status: 400 });
    }
    return redirectWithToast(request, `/rapportering/${state}/bekrafta`, "Returerna är sparade.");
  });
}

export default function ReturnsPage() {
  const loaderData = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // A form that breaks the schema gets the contract's reply (no lines): the page starts over.
  const actionData = answer && "lines" in answer ? (answer as ReturnsAnswer) : (loaderData.restored ?? undefined);
  const { state } = loaderData;
  return (
    <>
      <h1>{state === 1 ? "Returrapportera" : "Ändra/tillägg"}</h1>
      <Outlet />
      <PrefetchRoute to={`/rapportering/${state}/bekrafta`} />
      {loaderData.restoredNotice && !answer ? (
        <p role="status" className="notice">
          {loaderData.restoredNotice}
        </p>
      ) : null}
      <details className="info">
        <summary>Så här rapporterar du</summary>
        {state === 1 ? (
          <p>
            Ange buntnumret och antalet returer för varje tidning. Slutsålda tidningar rapporteras med 0 (knappen
            Slutsåld). Ska en tidning läggas i flera buntar, tryck Ny bunt. Tryck sedan Spara och fortsätt och ange vilka
            buntar som ska stängas.
          </p>
        ) : (
          <p>
            Här ser du det du redan har rapporterat. Tryck Tilläggsrapportera för att lägga till returer i en öppen bunt.
            Rader i stängda buntar (markerade med lås) kan inte ändras; lägg extra returer i ett annat buntnummer.
          </p>
        )}
      </details>
      {/* Each print says what it gives (decision 038): the day's slip once something is reported, the list of the page. */}
      <p className="actions">
        {loaderData.reportedToday ? (
          <a className="button" href="/returkvitto.pdf">
            Skriv ut dagens returer
          </a>
        ) : null}
        <a className="button" href={`/rapportering/${state}/returer.pdf`} download="Returer.pdf">
          {state === 1 ? "Skriv ut räknelista" : "Skriv ut rapporterade tidningar"}
        </a>
      </p>
      <ReturnsForm key={actionData?.nonce ?? loaderData.token} loaderData={loaderData} actionData={actionData} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
