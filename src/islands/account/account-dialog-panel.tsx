import { createRoot } from 'react-dom/client';
import { type AccountModalType, closeAccountModal, openAccountModal } from '../../stores/user.ts';
import AccountPanel from './AccountPanel.tsx';

/** The account forms rendered into the site's account dialog. */
export interface AccountDialogPanel {
  /** Shows the form of this type; switching forms keeps the panel, opening after `hide` starts afresh. */
  show(type: AccountModalType): void;
  /** Removes the form, so the next opening starts afresh. */
  hide(): void;
}

/**
 * Renders the account forms (React, with the captcha and the WeChat login) into `container`. The
 * dialog around them is plain markup (src/components/AccountDialog.astro), which imports this
 * module only when it first opens: React then loads on demand instead of on every page.
 */
export function mountAccountDialogPanel(container: HTMLElement): AccountDialogPanel {
  // Its own prefix keeps useId values apart from the page's islands, which are separate roots.
  const root = createRoot(container, { identifierPrefix: 'account-' });
  return {
    show(type) {
      root.render(<AccountPanel type={type} onSwitch={openAccountModal} onDone={closeAccountModal} />);
    },
    hide() {
      root.render(null);
    },
  };
}
