import type { ReactNode } from "react";

/*
 * Lucide's glyphs (check, circle-alert, credit-card, external-link, receipt, rotate-cw), drawn here
 * rather than imported, as the community switcher does: icons are grouped into chunks by the pages
 * that share them (vite.config.ts, decision 0009), and the billing pages and the plan chooser
 * importing lucide icons regrouped them so that a member's community page loaded about 1.4 KB of
 * icons it never shows, over its budget.
 */
function Glyph({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
type Props = { className?: string };

export const Check = ({ className }: Props) => (
  <Glyph className={className}>
    <path d="M20 6 9 17l-5-5" />
  </Glyph>
);
export const CircleAlert = ({ className }: Props) => (
  <Glyph className={className}>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4" />
    <path d="M12 16h.01" />
  </Glyph>
);
export const CreditCard = ({ className }: Props) => (
  <Glyph className={className}>
    <rect width="20" height="14" x="2" y="5" rx="2" />
    <path d="M2 10h20" />
  </Glyph>
);
export const ExternalLink = ({ className }: Props) => (
  <Glyph className={className}>
    <path d="M15 3h6v6" />
    <path d="M10 14 21 3" />
    <path d="M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" />
  </Glyph>
);
export const Receipt = ({ className }: Props) => (
  <Glyph className={className}>
    <path d="M4 2v20l2-1 2 1 2-1 2 1 2-1 2 1 2-1 2 1V2l-2 1-2-1-2 1-2-1-2 1-2-1-2 1Z" />
    <path d="M16 8h-6a2 2 0 1 0 0 4h4a2 2 0 1 1 0 4H8" />
    <path d="M12 17.5v-11" />
  </Glyph>
);
export const RotateCw = ({ className }: Props) => (
  <Glyph className={className}>
    <path d="M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8" />
    <path d="M21 3v5h-5" />
  </Glyph>
);
