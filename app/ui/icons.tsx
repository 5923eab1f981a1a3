// The portal's icons as inline SVG: no icon font and no emoji, which old
// phones and shop terminals draw as empty boxes. Each icon either carries a text
// alternative (`label`: role=img with aria-label) or is decorative (aria-hidden) beside
// text that says the same. They take the text colour (currentColor) and scale with it.
import type { ReactNode } from "react";

type IconProps = { label?: string; className?: string };

function Svg({ label, className, children, viewBox = "0 0 16 16" }: IconProps & { children: ReactNode; viewBox?: string }) {
  return (
    <svg
      className={`icon${className ? ` ${className}` : ""}`}
      viewBox={viewBox}
      width="1em"
      height="1em"
      fill="currentColor"
      focusable="false"
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
    >
      {label ? <title>{label}</title> : null}
      {children}
    </svg>
  );
}

export function LockIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 6V4.5a2 2 0 1 1 4 0V7H6Z" />
    </Svg>
  );
}

export function ArrowUpIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 3 13 10H3Z" />
    </Svg>
  );
}

export function ArrowDownIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 13 3 6h10Z" />
    </Svg>
  );
}

export function InfoIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm0 3a1 1 0 1 1 0 2 1 1 0 0 1 0-2Zm1.2 8H6.8v-1.2h.6V8.2h-.6V7h2v3.8h.4Z" />
    </Svg>
  );
}
