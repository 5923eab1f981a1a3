// A field's (or a form's) messages, tied to it by id. Its own module, free of conform, so
// the pages that render plain inputs (the login) ship no form library.
/** `announce` false: no alert, for an error that the focus reads out anyway. */
export function FieldErrors({ id, errors, announce = true }: { id?: string; errors?: string[]; announce?: boolean }) {
  if (!errors?.length) return null;
  return (
    <div id={id} className="field-error" role={announce ? "alert" : undefined}>
      {errors.join(" ")}
    </div>
  );
}
