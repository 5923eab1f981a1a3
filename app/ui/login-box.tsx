import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { replyError, replyValue, type FormReply } from "./form-reply";
import { FieldErrors } from "./field-errors";
import { useHydrated } from "./use-hydrated";

/**
 * The header box 'Återförsäljarlogin'. An e-mail address in Kundnummer is staff: the
 * server sends it on to staff's own page, /personal/logga-in, with the address kept.
 *
 * The login is the browser's own POST (reloadDocument), with JavaScript as without: the
 * start page then comes as HTML, painted as it arrives, which on a slow phone is sooner
 * than a fetch and a render in the browser (bench B12).
 *
 * Plain inputs, checked on the server only (the same zod schema, through handleForm): the
 * login page is the first page a slow phone loads, and without conform and zod in the
 * browser it stays under its 100 KB of JavaScript (tests/e2e/js-budget.http.spec.ts). The server's answer
 * comes back in Swedish with what was typed, as every form's does.
 */
export function LoginBox({ lastResult, redirectTo }: { lastResult?: FormReply | null; redirectTo?: string }) {
  const hydrated = useHydrated();
  const pinRef = useRef<HTMLInputElement>(null);
  // A refused login clears the PIN in the browser too (the server never echoes it).
  useEffect(() => {
    if (lastResult && pinRef.current) pinRef.current.value = "";
  }, [lastResult]);
  const numberError = replyError(lastResult, "kundnummer");
  const pinError = replyError(lastResult, "pinkod");
  const formErrors = lastResult?.error?.[""] ?? undefined;
  // A refused login (wrong number or PIN: which is not told) marks the PIN field invalid
  // and ties the reason to it. Announced once: with JavaScript the focus
  // moves to the field (app/ui/focus.ts), which reads the reason; without it the reason
  // is an alert on the new page.
  const pinInvalid = Boolean(pinError || formErrors?.length);
  const pinDescribedBy = [formErrors?.length ? "login-error" : "", pinError ? "login-pinkod-error" : ""].filter(Boolean).join(" ") || undefined;
  return (
    <section className="login-box" aria-labelledby="login-title">
      <h2 id="login-title">Återförsäljarlogin</h2>
      <Form method="post" action={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"} noValidate reloadDocument>
        <FieldErrors id="login-error" errors={formErrors} announce={!hydrated} />
        <div className="field">
          <label htmlFor="login-kundnummer">Kundnummer</label>
          {/* The number pad on phones, like Pinkod: staff have their own page (decision 027). */}
          <input
            id="login-kundnummer"
            name="kundnummer"
            type="text"
            inputMode="numeric"
            autoComplete="username"
            defaultValue={replyValue(lastResult, "kundnummer") ?? ""}
            aria-invalid={numberError ? true : undefined}
            aria-describedby={numberError ? "login-kundnummer-error" : undefined}
          />
          <FieldErrors id="login-kundnummer-error" errors={numberError ? [numberError] : undefined} />
        </div>
        <div className="field">
          <label htmlFor="login-pinkod">Pinkod</label>
          <input
            ref={pinRef}
            id="login-pinkod"
            name="pinkod"
            type="password"
            autoComplete="current-password"
            inputMode="numeric"
            aria-invalid={pinInvalid || undefined}
            aria-describedby={pinDescribedBy}
          />
          <FieldErrors id="login-pinkod-error" errors={pinError ? [pinError] : undefined} />
        </div>
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="primary">
          Logga in
        </button>
      </Form>
    </section>
  );
}
