import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { LoginSchema } from "~/features/auth";
import { Field, FieldErrors } from "./field";
import { useContractForm } from "./form";

/** The header box 'Återförsäljarlogin'. An e-mail address in Kundnummer logs in as staff. */
export function LoginBox({ lastResult, redirectTo }: { lastResult?: SubmissionResult<string[]> | null; redirectTo?: string }) {
  const navigation = useNavigation();
  const [form, fields] = useContractForm(LoginSchema, { id: "login", lastResult });
  // A refused login clears the PIN in the browser too (the server never echoes it).
  useEffect(() => {
    const pin = document.getElementById(fields.pinkod.id) as HTMLInputElement | null;
    if (lastResult && pin) pin.value = "";
  }, [lastResult, fields.pinkod.id]);
  return (
    <section className="login-box" aria-labelledby="login-title">
      <h2 id="login-title">Återförsäljarlogin</h2>
      <Form method="post" action={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"} {...getFormProps(form)}>
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field label="Kundnummer" field={fields.kundnummer} inputProps={{ autoComplete: "username" }} />
        <Field label="Pinkod" field={fields.pinkod} type="password" inputProps={{ autoComplete: "current-password" }} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="primary" disabled={navigation.state === "submitting"}>
          Logga in
        </button>
      </Form>
    </section>
  );
}
