// Byt lösenord: every staff user sets their own password here (the current one and the
// new one twice). After logging in with an admin's one-time password, every staff page
// leads here until a new one is chosen (app/auth/guards.server.ts requireStaff). The
// change ends the user's other sessions; this one goes on under a new id (decision 035).
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { getUserAndSession, requireStaff, staffHome } from "~/auth/guards.server";
import { sessionData, startSession, toastCookieHeader } from "~/auth/session.server";
import { loginPageHeaders } from "~/auth/login-flow.server";
import { OwnPasswordSchema } from "~/features/staff";
import { changeOwnPassword, PASSWORD_MIN_LENGTH } from "~/features/staff/index.server";
import { handleForm, type FormReply } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";

// A wrong current password is weighed like a login: its 429's Retry-After reaches the page.
export const headers = loginPageHeaders;

export const meta: MetaFunction = () => [{ title: "Byt lösenord – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context);
  return { forced: user.mustChangePassword, email: user.email, minLength: PASSWORD_MIN_LENGTH };
}

const SECRET_FIELDS = ["nuvarande", "nytt", "igen"];

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context);
  const { session } = await getUserAndSession(request);
  return handleForm(
    request,
    OwnPasswordSchema,
    async (v) => {
      const { sessionsEnded } = await changeOwnPassword(user.staffId, { current: v.nuvarande, next: v.nytt }, session.id || null, user.actor);
      const others = sessionsEnded === 0 ? "" : sessionsEnded === 1 ? " Din andra inloggning är avslutad." : ` Dina ${sessionsEnded} andra inloggningar är avslutade.`;
      // This login goes on under a new session id: a copy of the old cookie is worth nothing now.
      const home = staffHome(user.roles);
      const headers = new Headers({ "Set-Cookie": await startSession(request, sessionData(session)) });
      headers.append("Set-Cookie", await toastCookieHeader(request, `Lösenordet är bytt.${others}`, home));
      return redirect(home, { headers });
    },
    { hideFields: SECRET_FIELDS },
  );
}

export default function OwnPasswordPage() {
  const { forced, email, minLength } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>();
  const [form, fields] = useContractForm(OwnPasswordSchema, { id: "own-password", lastResult });
  const password = { type: "password" as const };
  return (
    <>
      <h1>Byt lösenord</h1>
      {forced ? (
        <p role="status" className="notice">
          Du loggade in med ett engångslösenord. Välj ett eget lösenord innan du fortsätter.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        {/* For password managers: whose password this is. */}
        <input type="email" name="anvandare" value={email} autoComplete="username" readOnly hidden />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field label="Nuvarande lösenord" field={fields.nuvarande} {...password} inputProps={{ autoComplete: "current-password" }} />
        <Field
          label="Nytt lösenord"
          field={fields.nytt}
          {...password}
          hint={`Minst ${minLength} tecken, gärna några ord. Inte ett vanligt lösenord, en följd som 123456 eller qwerty, eller din e-postadress eller ditt namn. Dina andra inloggningar avslutas när du byter.`}
          inputProps={{ autoComplete: "new-password" }}
        />
        <Field label="Nytt lösenord igen" field={fields.igen} {...password} inputProps={{ autoComplete: "new-password" }} />
        <button type="submit" className="primary">
          Byt lösenord
        </button>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
