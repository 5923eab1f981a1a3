// Påminnelser (decision 017): the retailer turns e-mail reminders about the
// last return day on or off and gives the address. Plain inputs checked by the server's
// schema (no form library in the page); what was typed stays after a refusal.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { handleForm } from "~/http/form.server";
import { REMINDER_FIELDS as F, REMINDER_TEXTS as T } from "~/features/reminders";
import { getReminderSettings, reminderSettingsSchema, saveReminderSettings } from "~/features/reminders/index.server";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field-errors";
import { replyError, replyFieldErrors, replyValue } from "~/ui/form-reply";

export const meta: MetaFunction = () => [{ title: "Påminnelser – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  return { settings: await getReminderSettings(user.customerId) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, reminderSettingsSchema, async (value) => {
    // The customer comes from the session only.
    await saveReminderSettings(user.customerId, value, user.actor);
    return redirectWithToast(request, "/paminnelser", value.enabled ? T.savedOn(value.email) : T.savedOff);
  });
}

export default function RemindersPage() {
  const { settings } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const errors = replyFieldErrors(reply);
  const formError = Object.keys(errors).length === 0 ? replyError(reply) : null;
  const busy = useNavigation().state === "submitting";
  const enabled = reply ? replyValue(reply, F.enabled) !== undefined : settings.enabled;
  const email = reply ? (replyValue(reply, F.email) ?? "") : settings.email;
  const emailError = errors[F.email];
  return (
    <>
      <h1>{T.title}</h1>
      <p>{T.intro}</p>
      <p>
        {settings.enabled ? T.statusOn(settings.email) : T.statusOff}
        {settings.lastSent ? ` ${T.lastSent(settings.lastSent.day, settings.lastSent.email)}` : null}
      </p>
      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <Form method="post" noValidate key={reply ? "reply" : `${settings.enabled}-${settings.email}`}>
        <CsrfInput />
        <div className="field checkbox">
          <input id={F.enabled} name={F.enabled} type="checkbox" value="1" defaultChecked={enabled} />
          <label htmlFor={F.enabled}>{T.enabledLabel}</label>
        </div>
        <div className="field">
          <label htmlFor={F.email}>{T.emailLabel}</label>
          <input
            id={F.email}
            name={F.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={254}
            defaultValue={email}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${F.email}-error` : undefined}
          />
          <FieldErrors id={`${F.email}-error`} errors={emailError ? [emailError] : undefined} />
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {T.save}
          </button>
        </div>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
