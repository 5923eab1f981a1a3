// Staff log in here, with their e-mail address and password (docs/decisions/027-staff-login-page.md);
// the code step (/login/kod) follows as from the retailer's box. The same throttle, audit
// and refusals as /login: only the fields differ.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { logIn, STAFF_PAGE_FIELDS } from "~/auth/auth.server";
import { finishLogin, loginPageHeaders, loginPageTarget } from "~/auth/login-flow.server";
import { looksLikeEmail, StaffLoginSchema } from "~/features/auth";
import { handleForm, type FormReply } from "~/http/form.server";
import { Refusal, isRefusal } from "~/lib/refusal";
import { BarePage } from "~/ui/bare-page";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Logga in som personal – Returportalen" }];

export const headers = loginPageHeaders;

// `?epost=`: an address typed into the retailers' login box, sent on here.
const STAFF_LOGIN_SEARCH = { epost: param.text(254) };

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = (await loginPageTarget(request)) || undefined;
  // An address typed into the retailers' box, sent on here: kept, the password asked for again.
  const { epost: address } = readSearch(request, STAFF_LOGIN_SEARCH);
  return { redirectTo, sentFromShopLogin: looksLikeEmail(address) ? address : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(
    request,
    StaffLoginSchema,
    async (value) => {
      try {
        return await finishLogin(await logIn("staff", request, context, STAFF_PAGE_FIELDS), request, context, value.redirectTo);
      } catch (error) {
        // A wrong address or password belongs beside the password; a throttle or a busy server over the form.
        if (isRefusal(error, "login")) throw new Refusal("login", error.message, { field: "losenord", retryAfterSeconds: error.retryAfterSeconds });
        throw error;
      }
    },
    { hideFields: ["losenord"] },
  );
}

export default function StaffLoginPage() {
  const { redirectTo, sentFromShopLogin } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>();
  const navigation = useNavigation();
  const [form, fields] = useContractForm(StaffLoginSchema, { id: "staff-login", lastResult, defaultValue: sentFromShopLogin ? { epost: sentFromShopLogin } : undefined });
  // A refused login clears the password in the browser too (the server never echoes it).
  useEffect(() => {
    const input = document.getElementById(fields.losenord.id) as HTMLInputElement | null;
    if (lastResult && input) input.value = "";
  }, [lastResult, fields.losenord.id]);
  return (
    <BarePage>
      <h1>Logga in som personal</h1>
      {sentFromShopLogin && !lastResult ? (
        <p role="status" className="notice">
          Personal loggar in här, med e-post och lösenord. Skriv ditt lösenord igen.
        </p>
      ) : null}
      <p>För personal på distributionen och kundtjänst. Butiker loggar in med kundnummer och pinkod.</p>
      <Form method="post" {...getFormProps(form)} action={redirectTo ? `/personal/logga-in?redirectTo=${encodeURIComponent(redirectTo)}` : "/personal/logga-in"}>
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field label="E-post" type="email" field={fields.epost} inputProps={{ autoComplete: "username", spellCheck: false }} />
        {/* Sent here with the address: the password is what is left to type. */}
        <Field label="Lösenord" type="password" field={fields.losenord} inputProps={{ autoComplete: "current-password", autoFocus: Boolean(sentFromShopLogin) && !lastResult }} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="primary" disabled={navigation.state === "submitting"}>
          Logga in
        </button>
      </Form>
      <p className="other-login">
        <a href="/login">Inloggning för butiker</a>
      </p>
    </BarePage>
  );
}
