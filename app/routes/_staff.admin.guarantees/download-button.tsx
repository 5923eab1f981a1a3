import { Form } from "@remix-run/react";
import { CsrfInput } from "~/ui/csrf";
import { HiddenFields } from "~/ui/row-action";

/** A document POST to /admin/guarantees/fil: the answer is the file (or a redirect back with a message). */
export function DownloadButton({ fields, label, ariaLabel }: { fields: Record<string, string>; label: string; ariaLabel?: string }) {
  return (
    <Form method="post" action="/admin/guarantees/fil" reloadDocument>
      <CsrfInput />
      <HiddenFields fields={fields} />
      <button type="submit" aria-label={ariaLabel}>
        {label}
      </button>
    </Form>
  );
}
