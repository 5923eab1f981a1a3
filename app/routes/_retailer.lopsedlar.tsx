import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { BUSY_MESSAGE, busyReply, isDatabaseBusy } from "~/http/busy.server";
import { redirectWithToast } from "~/auth/session.server";
import { listPlacards, MAX_PLACARDS, savePlacards } from "~/features/placards/index.server";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Löpsedlar – Returportalen" }];

const REQUIRED = "Måste ange ett värde.";
const UNREASONABLE = "Orimligt värde.";
const FAILED = "Något gick fel!";

type Failure = { values: Record<string, string>; errors: Record<string, string>; formError: string | null };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  return { placards: await listPlacards(user.customerId) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const form = await request.formData();
  const titleIds = form.getAll("titel").map(String);
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const wanted: { titleId: number; newAmount: number }[] = [];
  for (const id of titleIds) {
    const raw = String(form.get(`antal-${id}`) ?? "").trim();
    values[id] = raw;
    if (raw === "") errors[id] = REQUIRED;
    else if (!/^\d{1,3}$/.test(raw) || Number(raw) > MAX_PLACARDS) errors[id] = UNREASONABLE;
    else wanted.push({ titleId: Number(id), newAmount: Number(raw) });
  }
  if (Object.keys(errors).length > 0) return data<Failure>({ values, errors, formError: null }, { status: 400 });
  try {
    // Rows are written for the session's customer only, whatever the form says.
    const saved = wanted.length > 0 && titleIds.every((id) => /^\d+$/.test(id)) ? await savePlacards(user.customerId, wanted) : { ok: false };
    if (!saved.ok) return data<Failure>({ values, errors, formError: FAILED }, { status: 400 });
  } catch (error) {
    if (isDatabaseBusy(error)) return busyReply<Failure>({ values, errors, formError: BUSY_MESSAGE });
    console.error("placards save failed", error);
    return data<Failure>({ values, errors, formError: FAILED }, { status: 500 });
  }
  return redirectWithToast(request, "/lopsedlar", "Sparat!");
}

export default function PlacardsPage() {
  const { placards } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1>Löpsedlar</h1>
      <p>Ange hur många löpsedlar ni vill ha per tidning. Ändringen gäller från nästa leverans.</p>
      {failed?.formError ? (
        <p className="field-error" role="alert">
          {failed.formError}
        </p>
      ) : null}
      <Form method="post" noValidate>
        <CsrfInput />
        <ul className="placard-list">
          {placards.map((p) => {
            const id = `antal-${p.titleId}`;
            const error = failed?.errors[p.titleId];
            const value = failed ? failed.values[p.titleId] : p.newAmount === null ? "" : String(p.newAmount);
            return (
              <li key={p.titleId} className="card">
                <h2>{p.title}</h2>
                <p>
                  Nuvarande antal: <strong>{p.amount}</strong>
                </p>
                <input type="hidden" name="titel" value={p.titleId} />
                <div className="field">
                  <label htmlFor={id}>Önskat antal {p.title}</label>
                  <input
                    key={`${id}-${value ?? ""}`}
                    id={id}
                    name={id}
                    type="text"
                    inputMode="numeric"
                    required
                    defaultValue={value ?? ""}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                  />
                  {error ? (
                    <div id={`${id}-error`} className="field-error" role="alert">
                      {error}
                    </div>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Spara
          </button>
        </div>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
