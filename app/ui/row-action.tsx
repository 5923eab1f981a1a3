import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { CsrfInput } from "~/ui/csrf";

type Props = {
  intent: string;
  /** Hidden inputs, rendered in this order before anything else in the form. */
  fields?: Record<string, string | number>;
  label: ReactNode;
  ariaLabel?: string;
  /** Class of the form (e.g. "inline-actions" when it holds more than the button). */
  className?: string;
  buttonClassName?: string;
  action?: string;
  /** Rendered between the hidden inputs and the button: an "Ändra" link or another button. */
  children?: ReactNode;
};

/**
 * One row's POST action in the back-office tables: a real form with hidden ids and a
 * submit button carrying the intent, so it works without JavaScript. The aria-label
 * names the row, since every row's button reads the same ("Ta bort").
 */
export function RowAction({ intent, fields = {}, label, ariaLabel, className, buttonClassName, action, children }: Props) {
  return (
    <Form method="post" action={action} className={className}>
      <CsrfInput />
      <HiddenFields fields={fields} />
      {children}
      <button type="submit" name="intent" value={intent} className={buttonClassName} aria-label={ariaLabel}>
        {label}
      </button>
    </Form>
  );
}

export function HiddenFields({ fields }: { fields: Record<string, string | number> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
