import { useEffect, useState } from "react";

// Decision: no rich-text editor library. The textarea takes the same small HTML subset
// the sanitiser keeps; with JavaScript these buttons wrap the selection in those tags.
const FORMATS = [
  { label: "Fet", before: "<strong>", after: "</strong>" },
  { label: "Kursiv", before: "<em>", after: "</em>" },
  { label: "Stycke", before: "<p>", after: "</p>" },
  { label: "Punktlista", before: "<ul>\n<li>", after: "</li>\n</ul>" },
  { label: "Länk", before: '<a href="https://">', after: "</a>" },
];

export function FormatButtons({ textareaId }: { textareaId: string }) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  if (!enhanced) return null;
  return (
    <div className="format-buttons" role="toolbar" aria-label="Formatering">
      {FORMATS.map((f) => (
        <button
          key={f.label}
          type="button"
          onClick={() => {
            const area = document.getElementById(textareaId) as HTMLTextAreaElement | null;
            if (!area) return;
            const { selectionStart: s, selectionEnd: e, value } = area;
            area.value = value.slice(0, s) + f.before + value.slice(s, e) + f.after + value.slice(e);
            area.focus();
            area.setSelectionRange(s + f.before.length, e + f.before.length);
            area.dispatchEvent(new Event("input", { bubbles: true }));
          }}
        >
          {f.label}
        </button>
      ))}
    </div>
  );
}
