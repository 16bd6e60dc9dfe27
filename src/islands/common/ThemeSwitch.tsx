import { useStore } from '@nanostores/react';
import type { ReactElement } from 'react';
import { $dark, toggleDark } from '../../stores/app.ts';
import { Icon } from './icons.tsx';
import { useHydrated } from './use-hydrated.ts';

/** A toggle button for the dark theme; both icons are in the markup and CSS shows the right one. */
export default function ThemeSwitch(): ReactElement {
  const dark = useStore($dark);
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className="icon-button theme-switch"
      aria-label="深色主题"
      aria-pressed={hydrated ? dark : undefined}
      title={hydrated && dark ? '切换到浅色主题' : '切换到深色主题'}
      onClick={toggleDark}
    >
      <Icon name="moon" className="theme-switch__moon" />
      <Icon name="sun" className="theme-switch__sun" />
    </button>
  );
}
