import type { ReactNode } from "react";
import { SubmitButton } from "./form";

/**
 * The actions row under a back-office edit form: the primary submit reads
 * "Uppdatera" while a row is being edited, otherwise `newLabel`; `children` follow
 * it (an "Avbryt" or "Nollställ" link). `valid` (from useContractForm) disables the
 * submit while the form is invalid, with JavaScript only (back-office spec §5).
 */
export function SaveActions({
  editing,
  intent = "save",
  newLabel = "Spara",
  valid = true,
  children,
}: {
  editing: boolean;
  intent?: string;
  newLabel?: string;
  valid?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="actions">
      <SubmitButton intent={intent} valid={valid}>
        {editing ? "Uppdatera" : newLabel}
      </SubmitButton>
      {children}
    </div>
  );
}
