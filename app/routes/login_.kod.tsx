// The second step of a staff login (docs/decisions/013-staff-second-factor.md): after
// the password, a code from an authenticator app. On the first login the page enrols
// the app (QR code and the secret as text) and then shows the recovery codes once.
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect } from "react";
import { checkSecondFactor } from "~/auth/auth.server";
import { requestContext } from "~/http/request-context";
import { Refusal, isRefusal } from "~/lib/refusal";
import { handleForm, invalid, readForm, type FormReply } from "~/http/form.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { CodeSchema } from "~/features/auth";
import { useContractForm } from "~/ui/form";
import { rememberDevice } from "~/auth/device.server";
import { getUserAndSession } from "~/auth/guards.server";
import { pendingStillValid, readPending, type PendingLogin } from "~/auth/pending.server";
import { auditLoginSuccess } from "~/auth/auth.server";
import { startSession, toastCookieHeader } from "~/auth/session.server";
import { getStaff } from "~/features/staff/index.server";
import { confirmEnrolment, enrolmentQrSvg, groupedSecret, verifySecondFactor } from "~/features/auth/index.server";
import { Field, FieldErrors } from "~/ui/field";
import { BarePage } from "~/ui/bare-page";

export const meta: MetaFunction = () => [{ title: "Tvåstegsverifiering – Returportalen" }];

// The page holds a secret (enrolment) or recovery codes: never kept by a cache or Back.
const NO_STORE = { "Cache-Control": "no-store" };

// Remix passes only cookies from loaders and actions to a document response by itself.
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers(NO_STORE);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

/**
 * The login waiting for a code, or null. A logged-in user is sent on by /login. No
 * redirect when nothing is pending: without JavaScript this loader also renders the
 * answer to the enrolling POST, whose request still carries the pending cookie that
 * the action has just ended, and a redirect would drop the new session's cookie.
 */
async function pendingLogin(request: Request) {
  const { session, user } = await getUserAndSession(request);
  if (user) throw redirect("/login");
  const pending = readPending(session);
  const staff = pending ? await getStaff(pending.staffId) : null;
  // Deactivated or given a new password since the password step: that login is over.
  if (!pending || !staff || !pendingStillValid(pending, staff)) return null;
  // Reset meanwhile (portal staff reset-2fa) with nothing to enrol: start over.
  if (!staff.totpSecret && !pending.secret) return null;
  return { pending, staff };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const found = await pendingLogin(request);
  if (!found) return data({ mode: "none" as const, qr: null, secret: null }, { headers: NO_STORE });
  const { pending, staff } = found;
  if (staff.totpSecret || !pending.secret) return data({ mode: "code" as const, qr: null, secret: null }, { headers: NO_STORE });
  const qr = await enrolmentQrSvg(pending.secret, staff.email);
  return data({ mode: "enrol" as const, qr, secret: groupedSecret(pending.secret) }, { headers: NO_STORE });
}

/** The full staff session, as /login starts it: a new session id and the device cookie. */
async function logIn(request: Request, context: ActionFunctionArgs["context"], pending: PendingLogin, toast?: { text: string; to: string }): Promise<Headers> {
  await auditLoginSuccess({ kind: "staff", staffId: pending.staffId }, context);
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", await startSession(request, { staffId: pending.staffId }));
  if (toast) headers.append("Set-Cookie", await toastCookieHeader(request, toast.text, toast.to));
  headers.append("Set-Cookie", await rememberDevice(request, pending.accountKey));
  return headers;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const found = await pendingLogin(request);
  if (!found) throw redirect("/personal/logga-in");
  const { pending, staff } = found;
  // A body that is no form (JSON, broken multipart) is an empty form: "Ange koden", 400.
  const readable = await readForm(request).then(
    () => true,
    () => false,
  );
  if (!readable) return invalid(parseWithZod(new FormData(), { schema: CodeSchema }), { hideFields: ["kod"] });
  const meta = requestContext(context);
  return handleForm(
    request,
    CodeSchema,
    async ({ kod }) => {
      try {
        if (staff.totpSecret || !pending.secret) {
          const use = await checkSecondFactor(staff.id, context, () => verifySecondFactor(staff.id, kod, meta));
          const toast =
            use.kind === "recovery"
              ? { text: `Du loggade in med en återställningskod. ${use.left === 1 ? "1 kod" : `${use.left} koder`} kvar.`, to: pending.redirectTo }
              : undefined;
          return redirect(pending.redirectTo, { headers: await logIn(request, context, pending, toast) });
        }
        const secret = pending.secret;
        const enrolled = await checkSecondFactor(staff.id, context, () => confirmEnrolment(staff.id, secret, kod, meta));
        // Enrolled from another browser meanwhile: this page now asks for that app's code.
        if ("enrolledElsewhere" in enrolled) throw redirect("/login/kod");
        const headers = await logIn(request, context, pending);
        return data({ recovery: { codes: enrolled.recoveryCodes, continueTo: pending.redirectTo } }, { headers });
      } catch (error) {
        // A wrong code belongs beside the field; a throttle or a busy server over the form.
        if (isRefusal(error, "login")) throw new Refusal("login", error.message, { field: "kod", retryAfterSeconds: error.retryAfterSeconds });
        throw error;
      }
    },
    { hideFields: ["kod"] },
  );
}

// The recovery codes exist in clear only in the action's answer: a reload of the data
// would replace that page with the one that sends a logged-in user home.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { recovery?: unknown } | undefined)?.recovery ? false : defaultShouldRevalidate;

export default function SecondFactorPage() {
  const { mode, qr, secret } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const recovery = actionData && "recovery" in actionData ? actionData.recovery : null;
  const lastResult = actionData && !("recovery" in actionData) ? (actionData as FormReply) : undefined;
  return (
    <BarePage>
      {recovery ? (
        <RecoveryCodes codes={recovery.codes} continueTo={recovery.continueTo} />
      ) : mode === "none" ? (
        <>
          <h1>Tvåstegsverifiering</h1>
          <p>Inloggningen har gått ut eller är redan klar.</p>
          <p>
            <a href="/personal/logga-in">Till inloggningen</a>
          </p>
        </>
      ) : (
        <>
          <h1>Tvåstegsverifiering</h1>
          {mode === "enrol" && qr && secret ? (
            <Enrolment qr={qr} secret={secret} />
          ) : (
            <p>Skriv in koden från appen i din telefon.</p>
          )}
          <CodeForm enrolling={mode === "enrol"} lastResult={lastResult} />
        </>
      )}
    </BarePage>
  );
}

function Enrolment({ qr, secret }: { qr: string; secret: string }) {
  return (
    <>
      <p>
        Personalkonton loggar in med lösenord och en engångskod från en app i telefonen, till exempel Microsoft
        Authenticator, Google Authenticator eller FreeOTP. Skanna QR-koden med appen och skriv in koden som appen visar.
      </p>
      {/* qrcode's own SVG markup: no script, no request; the text below says the same. */}
      <figure className="totp-qr" aria-labelledby="totp-qr-caption" dangerouslySetInnerHTML={{ __html: qr }} />
      <p id="totp-qr-caption">Kan du inte skanna? Skriv in den här nyckeln i appen (tidsbaserad, 6 siffror):</p>
      <p>
        <code className="totp-secret" data-testid="totp-secret">
          {secret}
        </code>
      </p>
    </>
  );
}

function CodeForm({ enrolling, lastResult }: { enrolling: boolean; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const [form, fields] = useContractForm(CodeSchema, { id: "second-factor", lastResult });
  // A refused code is cleared in the browser too (the server never echoes it).
  useEffect(() => {
    const input = document.getElementById(fields.kod.id) as HTMLInputElement | null;
    if (lastResult && input) input.value = "";
  }, [lastResult, fields.kod.id]);
  return (
    <Form method="post" {...getFormProps(form)}>
      <FieldErrors id={form.errorId} errors={form.errors} />
      <Field
        label={enrolling ? "Kod från appen" : "Engångskod"}
        field={fields.kod}
        hint={enrolling ? "Sex siffror." : "Sex siffror från appen, eller en av dina återställningskoder."}
        inputProps={{ inputMode: "numeric", autoComplete: "one-time-code" }}
      />
      <button type="submit" className="primary" disabled={navigation.state === "submitting"}>
        {enrolling ? "Bekräfta" : "Logga in"}
      </button>
    </Form>
  );
}

function RecoveryCodes({ codes, continueTo }: { codes: string[]; continueTo: string }) {
  return (
    <>
      <h1>Dina återställningskoder</h1>
      <p role="status">Tvåstegsverifieringen är på.</p>
      <p>
        Spara koderna på ett säkert ställe, till exempel utskrivna. Om du inte har telefonen till hands loggar du in med
        en av dem i stället för koden från appen. Varje kod fungerar en gång. <strong>Koderna visas bara nu.</strong>
      </p>
      <ol className="recovery-codes" aria-label="Återställningskoder">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <p>
        <a href={continueTo} className="button primary">
          Fortsätt
        </a>
      </p>
    </>
  );
}
