import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { LoginSchema } from "~/features/auth";
import { Field, FieldErrors } from "./field";
import { useContractForm } from "./form";
import { useHydrated } from "./use-hydrated";

/** The header box 'Återförsäljarlogin'. An e-mail address in Kundnummer logs in as staff. */
export function LoginBox({ lastResult, redirectTo }: { lastResult?: SubmissionResult<string[]> | null; redirectTo?: string }) {
  const navigation = useNavigation();
  const [form, fields] = useContractForm(LoginSchema, { id: "login", lastResult });
  const hydrated = useHydrated();
  // A refused login (wrong number or PIN: which is not told) marks the PIN field invalid
  // and ties the reason to it (issue 17 §1). Announced once: with JavaScript the focus
  // moves to the field (app/ui/focus.ts), which reads the reason; without it the reason
  // is an alert on the new page.
  const refused = Boolean(form.errors?.length);
  // The PIN pad on phones; a staff member (an e-mail address in Kundnummer) types a
  // password with letters, so the keyboard follows what is typed (with JavaScript).
  const [staffLogin, setStaffLogin] = useState(false);
  const pinAria = refused ? { "aria-invalid": true, "aria-describedby": form.errorId } : {};
  // A refused login clears the PIN in the browser too (the server never echoes it).
  useEffect(() => {
    const pin = document.getElementById(fields.pinkod.id) as HTMLInputElement | null;
    if (lastResult && pin) pin.value = "";
  }, [lastResult, fields.pinkod.id]);
  return (
    <section className="login-box" aria-labelledby="login-title">
      <h2 id="login-title">Återförsäljarlogin</h2>
      <Form method="post" action={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"} {...getFormProps(form)}>
        <FieldErrors id={form.errorId} errors={form.errors} announce={!hydrated} />
        {/* Not inputMode numeric: staff log in here with their e-mail address. */}
        <Field label="Kundnummer" field={fields.kundnummer} inputProps={{ autoComplete: "username", onInput: (e) => setStaffLogin(e.currentTarget.value.includes("@")) }} />
        <Field label="Pinkod" field={fields.pinkod} type="password" inputProps={{ autoComplete: "current-password", inputMode: staffLogin ? "text" : "numeric", ...pinAria }} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="primary" disabled={navigation.state === "submitting"}>
          Logga in
        </button>
      </Form>
    </section>
  );
}
