import type { ReactNode } from "react";

/**
 * The actions row under a back-office edit form: the primary submit reads
 * "Uppdatera" while a row is being edited, otherwise `newLabel`; `children` follow
 * it (an "Avbryt" or "Nollställ" link).
 */
export function SaveActions({ editing, intent = "save", newLabel = "Spara", children }: { editing: boolean; intent?: string; newLabel?: string; children?: ReactNode }) {
  return (
    <div className="actions">
      <button type="submit" name="intent" value={intent} className="primary">
        {editing ? "Uppdatera" : newLabel}
      </button>
      {children}
    </div>
  );
}
