import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, useActionData, useLoaderData } from "@remix-run/react";
import { logIn } from "~/auth/auth.server";
import { finishLogin, loginPageHeaders, loginPageTarget } from "~/auth/login-flow.server";
import { staffLoginTo } from "~/auth/guards.server";
import { handleForm, type FormReply } from "~/http/form.server";
import { LAPSED_NOTICE, hasCarriedForm } from "~/auth/carried.server";
import { LoginSchema, looksLikeEmail } from "~/features/auth";
import { config } from "~/config.server";
import { LoginBox } from "~/ui/login-box";
import { BarePage } from "~/ui/bare-page";
import { PrefetchRoute } from "~/ui/prefetch-route";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Logga in – Returportalen" }];

export const headers = loginPageHeaders;

const LOGIN_SEARCH = { redirectTo: param.text(2000) };

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = await loginPageTarget(request);
  // A bookmark of a staff page from before staff had their own login page.
  if (redirectTo.startsWith("/admin")) throw redirect(staffLoginTo(redirectTo));
  // Only a browser whose session lapsed with a returns form pending is told why.
  return {
    redirectTo: redirectTo || undefined,
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
    async ({ kundnummer, redirectTo }) => {
      // An e-mail address in Kundnummer is staff, who log in on their own page: sent there
      // with the address kept and nothing weighed, the password never carried (decision 027).
      if (looksLikeEmail(kundnummer)) {
        const back = redirectTo || readSearch(request, LOGIN_SEARCH).redirectTo;
        throw redirect(staffLoginTo(back.startsWith("/admin") ? back : null, kundnummer), 303);
      }
      return finishLogin(await logIn("retailer", request, context), request, context, redirectTo);
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
      <p className="other-login">
        <a href="/personal/logga-in">Inloggning för personal</a>
      </p>
    </BarePage>
  );
}
