// The alerts dialog's 'Stäng': marks the dialog shown for this session.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getUserAndSession, requireRetailer, safeRedirect } from "~/auth/guards.server";
import { commitSession } from "~/auth/session.server";
import { closeAlertsSchema } from "~/features/alerts";
import { ALERTS_SHOWN_KEY } from "~/features/alerts/index.server";
import { handleForm } from "~/http/form.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  throw redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRetailer(request, context);
  const answer = await handleForm(request, closeAlertsSchema, async ({ redirectTo }) => {
    const { session } = await getUserAndSession(request);
    session.set(ALERTS_SHOWN_KEY, true);
    const to = safeRedirect(redirectTo ?? null, "/");
    return redirect(to.startsWith("/admin") ? "/" : to, { headers: { "Set-Cookie": await commitSession(request, session) } });
  });
  // This route has no page to show a refusal on (a posted field with a control character):
  // the dialog stays unclosed and the start page shows it again; the posted values never
  // come back as the form's JSON.
  return answer instanceof Response ? answer : redirect("/");
}
