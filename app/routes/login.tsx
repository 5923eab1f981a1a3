import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, useActionData, useLoaderData } from "@remix-run/react";
import { auditLoginSuccess, logIn, looksLikeEmail } from "~/auth/auth.server";
import { audit, staffActor } from "~/features/audit/index.server";
import { requestContext } from "~/http/request-context";
import { handleForm, type FormReply } from "~/http/form.server";
import { getUser, safeRedirect } from "~/auth/guards.server";
import { rememberDevice } from "~/auth/device.server";
import { LAPSED_NOTICE, carriedAfterLogin, hasCarriedForm } from "~/auth/carried.server";
import { passwordStamp, pendingSessionData } from "~/auth/pending.server";
import { startSession } from "~/auth/session.server";
import { getStaff } from "~/features/staff/index.server";
import { newTotpSecret, secondFactorRequired } from "~/features/auth/index.server";
import { LoginSchema } from "~/features/auth";
import { config } from "~/config.server";
import { LoginBox } from "~/ui/login-box";
import { BarePage } from "~/ui/bare-page";
import { PrefetchRoute } from "~/ui/prefetch-route";

export const meta: MetaFunction = () => [{ title: "Logga in – Returportalen" }];

async function homeFor(user: { kind: "retailer" } | { kind: "staff"; staffId: number }): Promise<string> {
  if (user.kind === "retailer") return "/";
  const staff = await getStaff(user.staffId);
  return staff?.roles.split(",").includes("admin") ? "/admin" : "/admin/distribution";
}

// A refused login's Retry-After reaches the document response (Remix takes a page's
// headers from here, not from the action's return).
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (user) throw redirect(safeRedirect(redirectTo, await homeFor(user)));
  // Only a browser whose session lapsed with a returns form pending is told why (issue 15.4).
  return {
    redirectTo: safeRedirect(redirectTo, "") || undefined,
    notice: (await hasCarriedForm(request)) ? LAPSED_NOTICE : null,
    // Customer service, for a newsagent who has lost the PIN letter: reachable without logging in.
    contact: { phone: config.contactPhone, email: config.contactEmail, hours: config.contactHours },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The schema parses a copy of the form; remix-auth's FormStrategy (logIn) reads the
  // request's own body. A refused login keeps the number, never the PIN.
  return handleForm(
    request,
    LoginSchema,
    async (value) => {
      const kind = looksLikeEmail(value.kundnummer) ? "staff" : "retailer";
      const result = await logIn(kind, request, context);
      const home = await homeFor(result);
      const to = safeRedirect(value.redirectTo, home);
      // A retailer sent back to a staff page (or the reverse) would only meet a 403.
      const fits = result.kind === "staff" ? to.startsWith("/admin") : !to.startsWith("/admin");
      // A form carried from a lapsed session: back to it for the same customer, else discarded.
      const carried = await carriedAfterLogin(request, result.kind === "retailer" ? result.customerId : null);
      if (result.kind === "staff") {
        // The password alone is not enough: the code step (/login/kod) starts the session.
        const staff = await getStaff(result.staffId);
        if (staff && secondFactorRequired(staff)) {
          const pending = pendingSessionData({
            staffId: staff.id,
            redirectTo: fits ? to : home,
            accountKey: result.accountKey,
            secret: staff.totpSecret ? null : newTotpSecret(),
            passwordStamp: passwordStamp(staff.passwordHash),
          });
          // Half a login: audited as its own step; login.success follows the code.
          await audit({ actor: staffActor(staff.id, requestContext(context)), action: "login.password", detail: { next: staff.totpSecret ? "code" : "enrol" } });
          const headers = new Headers({ "Set-Cookie": await startSession(request, pending) });
          if (carried.setCookie) headers.append("Set-Cookie", carried.setCookie);
          return redirect("/login/kod", { headers });
        }
      }
      await auditLoginSuccess(result, context);
      const cookie = await startSession(request, result.kind === "retailer" ? { customerId: result.customerId } : { staffId: result.staffId });
      const headers = new Headers();
      headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", await rememberDevice(request, result.accountKey));
      if (carried.setCookie) headers.append("Set-Cookie", carried.setCookie);
      return redirect(carried.to ?? (fits ? to : home), { headers });
    },
    { hideFields: ["pinkod"] },
  );
}

export default function LoginPage() {
  const { redirectTo, notice, contact } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>();
  return (
    <BarePage>
      <h1>Logga in</h1>
      {notice ? (
        <p role="status" className="notice">
          {notice}
        </p>
      ) : null}
      <p>Logga in med ditt kundnummer och din pinkod för att rapportera returer.</p>
      <LoginBox lastResult={lastResult} redirectTo={redirectTo} />
      {/* While the number and PIN are typed, the start page's code comes (bench B12). */}
      <PrefetchRoute to={redirectTo ?? "/"} />
      {/* No accessible name of its own: "Glömt pinkod?" must not answer to the label "Pinkod". */}
      <section className="login-help">
        <h2>Glömt pinkod?</h2>
        <p>
          Ring kundtjänst på <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>, {contact.hours}. Vi skickar
          en ny pinkod i ett brev till butiken.
        </p>
        <p>
          Kundtjänst svarar också på e-post: <a href={`mailto:${contact.email}`}>{contact.email}</a>.
        </p>
      </section>
    </BarePage>
  );
}
