import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, redirect } from "@remix-run/react";
import { requireFormToken } from "~/auth/csrf.server";
import { getUserAndSession } from "~/auth/guards.server";
import { destroySession, endToastCookie } from "~/auth/session.server";
import { endSessionOf } from "~/features/auth/index.server";
import { audit } from "~/features/audit/index.server";
import { requestContext } from "~/http/request-context";
import { CsrfInput } from "~/ui/csrf";
import { LogoutSchema } from "~/features/auth";
import { handleForm } from "~/http/form.server";

// Nothing changes on a GET: it only offers the button.
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await getUserAndSession(request);
  if (!user) throw redirect("/login");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { session, user } = await getUserAndSession(request);
  if (!user) return redirect("/login", { headers: { "Set-Cookie": await destroySession(request, session) } });
  // Ending a session needs its form too: another customer's page cannot log this one out.
  await requireFormToken(request, session);
  return handleForm(request, LogoutSchema, async () => {
    // Logga ut ends every login of this browser: in a retailer's portal opened by staff, the
    // staff session it came from too (Tillbaka till personal is the way back instead).
    const staffSessionId = session.get("staffSessionId");
    const staffEnded = typeof staffSessionId === "string" && user.kind === "retailer" && user.impersonatorId !== null ? await endSessionOf(staffSessionId, user.impersonatorId) : false;
    await audit({ actor: { ...user.actor, ...requestContext(context) }, action: "logout", detail: staffEnded ? { staffSessionEnded: true } : undefined });
    // Staff come back to their own login page.
    // A message still waiting for its page is the user's: the next user of the browser does not see it.
    const headers = new Headers({ "Set-Cookie": await destroySession(request, session) });
    headers.append("Set-Cookie", await endToastCookie(request));
    return redirect(user.kind === "staff" || staffEnded ? "/personal/logga-in" : "/login", { headers });
  });
}

export default function LogoutPage() {
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <h1>Logga ut</h1>
      <Form method="post">
        <CsrfInput />
        <button type="submit" className="primary">
          Logga ut
        </button>
      </Form>
    </main>
  );
}
