import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { Field, FieldErrors } from "./field";

export const LoginSchema = z.object({
  kundnummer: z.string({ error: "Kundnummer måste anges" }).trim().min(1, "Kundnummer måste anges").max(254),
  pinkod: z.string({ error: "Pinkod måste anges" }).min(1, "Pinkod måste anges").max(200),
  redirectTo: z.string().max(2000).optional(),
});

/** The header box 'Återförsäljarlogin'. An e-mail address in Kundnummer logs in as staff. */
export function LoginBox({ lastResult, redirectTo }: { lastResult?: SubmissionResult<string[]>; redirectTo?: string }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
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
