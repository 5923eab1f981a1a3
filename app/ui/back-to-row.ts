import { useHydrated } from "./use-hydrated";

/**
 * Without JavaScript, a row's button posts the whole page and the answer would open at
 * the top; `formAction="#<row>"` makes the browser open it at that row instead (the
 * fragment is kept through the answer and its redirect). With JavaScript nothing reloads,
 * so the attribute is left out.
 *
 *   <button {...backToRow(`leverans-${row.id}`)} …>Spara</button>
 */
export function useBackToRow(): (rowId: string) => { formAction?: string } {
  const hydrated = useHydrated();
  return (rowId) => (hydrated ? {} : { formAction: `#${rowId}` });
}
