import type { ReactNode } from "react";

/**
 * The actions row under a back-office edit form: the primary submit reads
 * "Uppdatera" while a row is being edited, otherwise `newLabel`; `children` follow
 * it (an "Avbryt" or "Nollställ" link). `valid` from useContractForm: false disables the
 * submit (with JavaScript only; the server checks anyway).
 */
export function SaveActions({ editing, intent = "save", newLabel = "Spara", valid = true, children }: { editing: boolean; intent?: string; newLabel?: string; valid?: boolean; children?: ReactNode }) {
  return (
    <div className="actions">
      <button type="submit" name="intent" value={intent} className="primary" disabled={!valid}>
        {editing ? "Uppdatera" : newLabel}
      </button>
      {children}
    </div>
  );
}
