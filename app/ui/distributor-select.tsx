/** A labelled choice of distributor for the staff screens' filters and forms; "" = none/all. */
export function DistributorSelect({
  id,
  label,
  distributors,
  defaultValue,
  emptyLabel = "Alla",
  name = "utb",
}: {
  id: string;
  label: string;
  distributors: readonly { id: number; name: string }[];
  defaultValue: number | string | null | undefined;
  emptyLabel?: string;
  name?: string;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={defaultValue ?? ""}>
        <option value="">{emptyLabel}</option>
        {distributors.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
    </>
  );
}
