// Line icons for the React islands, drawn like src/components/Icon.astro (which has the full set).
import type { ReactElement } from 'react';

const PATHS = {
  close: 'M6 6l12 12M18 6 6 18',
} as const;

/** The name of an icon in the set. */
export type IconName = keyof typeof PATHS;

/** A decorative 24 × 24 line icon; the control around it carries the accessible name. */
export function Icon({ name, className }: { name: IconName; className?: string }): ReactElement {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
