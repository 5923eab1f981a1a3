// Personal: an admin lists the staff accounts, adds one, changes roles and
// distributor, deactivates or reactivates one, and resets a password — a one-time
// password shown once. Every change is audited and ends the user's sessions.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { StaffActionSchema } from "~/features/staff";
import { changeStaffRoles, createStaff, getStaff, resetStaffPassword, searchStaff, setStaffActive } from "~/features/staff/index.server";
import { secondFactorRequired } from "~/features/auth/index.server";
import { listDistributors } from "~/features/customers/index.server";
import { handleForm, type FormReply } from "~/http/form.server";
import { listUrl } from "~/http/params";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { DistributorSelect } from "~/ui/distributor-select";
import { Pager } from "~/ui/pager";
import { TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Personal – Returportalen" }];

const ROLE_LABEL = { admin: "Administratör", sales: "Sälj", utb: "Distributör (utb)" } as const;

const STAFF_SEARCH = { sok: param.text(100), sida: param.page() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const { sok: q, sida: page } = readSearch(request, STAFF_SEARCH);
  const [list, distributors] = await Promise.all([searchStaff({ q, page }), listDistributors()]);
  const staff = list.rows.map((s) => ({ ...s, roles: s.roles.split(","), hasSecondFactor: Boolean(s.hasSecondFactor) }));
  return { staff, total: list.total, page: list.page, pages: list.pages, q, distributors, me: user.staffId };
}

/** After a change the admin is back on the list as they left it: the same search and page. */
const backToList = (request: Request) => listUrl(request, "/admin/personal", ["sok", "sida"]);

type SecondStep = "enrol" | "code" | "none";
type Answer = FormReply & { shown?: { email: string; password: string; created: boolean; secondStep: SecondStep } };

/** What the user's next login asks for after the password, as it will really be. */
async function secondStepOf(staffId: number): Promise<SecondStep> {
  const staff = await getStaff(staffId);
  if (!staff || !secondFactorRequired(staff)) return "none";
  return staff.totpSecret ? "code" : "enrol";
}

const NEXT_LOGIN: Record<SecondStep, string> = {
  enrol: "Vid första inloggningen väljer användaren ett eget lösenord och kopplar en autentiseringsapp i telefonen.",
  code: "Vid nästa inloggning anger användaren koden från sin autentiseringsapp och väljer sedan ett eget lösenord.",
  none: "Vid första inloggningen väljer användaren ett eget lösenord.",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, StaffActionSchema, async (v, submission) => {
    switch (v.intent) {
      case "lagg-till": {
        const { id, password } = await createStaff({ email: v.email, name: v.name, roles: v.roles, distributorId: v.distributorId }, user.actor);
        // The one-time password is in this answer only.
        return { ...submission.reply({ resetForm: true }), shown: { email: v.email, password, created: true, secondStep: await secondStepOf(id) } };
      }
      case "roller":
        await changeStaffRoles({ id: v.staffId }, v.roles, v.distributorId, user.actor, user.staffId);
        return redirectWithToast(request, backToList(request), "Rollerna är ändrade. Användarens inloggningar är avslutade.");
      case "stang-av": {
        const changed = await setStaffActive(v.staffId, false, user.actor, user.staffId);
        return redirectWithToast(request, backToList(request), changed ? "Kontot är avstängt och dess inloggningar avslutade." : "Kontot var redan avstängt.");
      }
      case "aktivera": {
        const changed = await setStaffActive(v.staffId, true, user.actor, user.staffId);
        return redirectWithToast(request, backToList(request), changed ? "Kontot är aktivt igen." : "Kontot var redan aktivt.");
      }
      case "nytt-losenord": {
        const password = await resetStaffPassword(v.staffId, user.actor);
        const email = (await getStaff(v.staffId))?.email ?? "";
        return { ...submission.reply({ resetForm: true }), shown: { email, password, created: false, secondStep: await secondStepOf(v.staffId) } };
      }
    }
  });
}

export default function StaffPage() {
  const { staff, total, page, pages, q, distributors, me } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const confirming = useConfirming();
  const sent = answer?.initialValue as Record<string, unknown> | undefined;
  const errorsFor = (intent: string, id?: number) =>
    sent?.intent === intent && (id === undefined || sent?.staffId === String(id)) ? Object.values(answer?.error ?? {}).flatMap((m) => m ?? []) : [];
  const addErrors = errorsFor("lagg-till");
  const typed = sent?.intent === "lagg-till" && addErrors.length ? sent : undefined;
  return (
    <>
      <h1>Personal</h1>
      {answer?.shown ? (
        <section className="card" role="status" aria-labelledby="one-time">
          <h2 id="one-time">{answer.shown.created ? "Kontot är skapat" : "Nytt lösenord"}</h2>
          <p>
            Engångslösenord för {answer.shown.email}, visas bara nu: <strong className="pin">{answer.shown.password}</strong>
          </p>
          <p>
            Lämna det till användaren på ett säkert sätt. {NEXT_LOGIN[answer.shown.secondStep]}
          </p>
          <p>
            <Link to={`/admin/personal?${new URLSearchParams({ sok: answer.shown.email })}`}>Visa {answer.shown.email} i listan</Link>
          </p>
        </section>
      ) : null}

      <Form method="get" className="actions" role="search" aria-label="Sök användare">
        <div className="field">
          <label htmlFor="sok">Sök (namn, e-post eller distributör)</label>
          <input id="sok" name="sok" type="search" defaultValue={q} maxLength={100} />
        </div>
        <button type="submit">Sök</button>
        {q ? <Link to="/admin/personal">Visa alla</Link> : null}
      </Form>
      <p>{q ? `${total} användare matchar sökningen.` : `${total} användare.`}</p>

      <TableOrEmpty empty={staff.length === 0} emptyText={q ? "Ingen användare matchar sökningen." : "Inga användare."}>
        <thead>
          <tr>
            <th scope="col">Namn</th>
            <th scope="col">E-post</th>
            <th scope="col">Roller och distributör</th>
            <th scope="col">Status</th>
            <th scope="col">Åtgärder</th>
          </tr>
        </thead>
        <tbody>
          {staff.map((s) => {
            const errors = [...errorsFor("roller", s.id), ...errorsFor("stang-av", s.id)];
            return (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td>{s.email}</td>
                <td>
                  <Form method="post" className="inline-field" aria-label={`Roller för ${s.email}`}>
                    <CsrfInput />
                    <input type="hidden" name="staffId" value={s.id} />
                    <fieldset className="plain">
                      <legend className="visually-hidden">Roller för {s.email}</legend>
                      {(Object.keys(ROLE_LABEL) as (keyof typeof ROLE_LABEL)[]).map((r) => (
                        <label key={r} className="check">
                          <input type="checkbox" name="roles" value={r} defaultChecked={s.roles.includes(r)} /> {ROLE_LABEL[r]}
                        </label>
                      ))}
                    </fieldset>
                    <DistributorSelect id={`dist-${s.id}`} name="distributorId" label="Distributör" emptyLabel="Ingen" distributors={distributors} defaultValue={s.distributorId} />
                    <button type="submit" name="intent" value="roller" aria-label={`Spara roller för ${s.email}`}>
                      Spara
                    </button>
                  </Form>
                  <FieldErrors errors={errors.length ? errors : undefined} />
                </td>
                <td>
                  {s.deactivatedAt ? "Avstängt" : "Aktivt"}
                  {s.hasSecondFactor ? "" : " (ingen autentiseringsapp ännu)"}
                </td>
                <td>
                  <span className="inline-actions">
                    <ConfirmLink confirm={`losenord-${s.id}`} label="Nytt lösenord" ariaLabel={`Nytt lösenord för ${s.email}`} />
                    {s.deactivatedAt ? (
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="staffId" value={s.id} />
                        <button type="submit" name="intent" value="aktivera" aria-label={`Aktivera ${s.email}`}>
                          Aktivera
                        </button>
                      </Form>
                    ) : s.id !== me ? (
                      <ConfirmLink confirm={`stang-av-${s.id}`} label="Stäng av" ariaLabel={`Stäng av ${s.email}`} />
                    ) : null}
                  </span>
                  {confirming === `losenord-${s.id}` ? (
                    <ConfirmDialog title="Ge ett nytt lösenord?" intent="nytt-losenord" fields={{ staffId: s.id }} confirmLabel="Ge nytt lösenord">
                      <p>{s.email} får ett engångslösenord som visas en gång. Det gamla slutar fungera och användarens inloggningar avslutas.</p>
                    </ConfirmDialog>
                  ) : null}
                  {confirming === `stang-av-${s.id}` ? (
                    <ConfirmDialog title="Stäng av kontot?" intent="stang-av" fields={{ staffId: s.id }} confirmLabel="Stäng av">
                      <p>{s.email} kan inte logga in förrän kontot aktiveras igen. Inloggningarna avslutas; historiken finns kvar.</p>
                    </ConfirmDialog>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </TableOrEmpty>
      <Pager page={page} pages={pages} />

      <section className="card" aria-labelledby="add-staff">
        <h2 id="add-staff">Ny användare</h2>
        <Form method="post">
          <CsrfInput />
          <FieldErrors errors={addErrors.length ? addErrors : undefined} />
          <div className="form-row">
            <div className="field">
              <label htmlFor="new-email">E-post</label>
              <input id="new-email" name="email" type="email" required defaultValue={String(typed?.email ?? "")} autoComplete="off" />
            </div>
            <div className="field">
              <label htmlFor="new-name">Namn</label>
              <input id="new-name" name="name" type="text" required defaultValue={String(typed?.name ?? "")} />
            </div>
            <fieldset className="plain">
              <legend>Roller</legend>
              {(Object.keys(ROLE_LABEL) as (keyof typeof ROLE_LABEL)[]).map((r) => (
                <label key={r} className="check">
                  <input type="checkbox" name="roles" value={r} defaultChecked={[typed?.roles ?? []].flat().includes(r)} /> {ROLE_LABEL[r]}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <DistributorSelect id="new-dist" name="distributorId" label="Distributör (för utb)" emptyLabel="Ingen" distributors={distributors} defaultValue={String(typed?.distributorId ?? "")} />
            </div>
          </div>
          <button type="submit" name="intent" value="lagg-till" className="primary">
            Lägg till användare
          </button>
        </Form>
      </section>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
