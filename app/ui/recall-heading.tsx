// A recall's name in a heading or link: its dates never broken across lines on a phone.
import { recallHeadingParts } from "~/features/recalls";

export function RecallName({ recall }: { recall: Parameters<typeof recallHeadingParts>[0] }) {
  const { lead, days } = recallHeadingParts(recall);
  return (
    <>
      {lead}, <span className="nowrap">{days}</span>
    </>
  );
}
