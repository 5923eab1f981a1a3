// The way back from an impersonated retailer session to the staff user's own.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { destroySession, getSession, resumeStaffSession } from "~/auth/session.server";
import { endImpersonation } from "~/features/auth/index.server";
import { ButtonOnlySchema, handleForm } from "~/http/form.server";

// Nothing changes on a GET.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  throw redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  const staffId = user.impersonatorId;
  if (staffId === null) throw new Response("Du är inte inloggad via ett personalkonto.", { status: 403 });
  return handleForm(request, ButtonOnlySchema, async () => {
    const staffStillExists = await endImpersonation(staffId, user.customerId, user.actor);
    if (!staffStillExists) {
      return redirect("/login", { headers: { "Set-Cookie": await destroySession(request, await getSession(request)) } });
    }
    // The staff session that opened the portal goes on, with its own expiry; if it has
    // ended meanwhile, the staff user logs in again.
    const session = await getSession(request);
    const cookie = await resumeStaffSession(request, session, staffId);
    if (!cookie) return redirect("/personal/logga-in?redirectTo=%2Fadmin", { headers: { "Set-Cookie": await destroySession(request, session) } });
    return redirect("/admin", { headers: { "Set-Cookie": cookie } });
  });
}
