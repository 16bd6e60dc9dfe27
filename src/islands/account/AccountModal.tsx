import { useStore } from '@nanostores/react';
import { lazy, type ReactElement, Suspense, useEffect, useId, useRef } from 'react';
import { $accountModal, type AccountModalType, closeAccountModal, openAccountModal } from '../../stores/user.ts';
import { Icon } from '../common/icons.tsx';
import { trapTab } from '../common/trap-tab.ts';

// The forms load when the dialog first opens, so pages that never open it do not pay for them.
const AccountPanel = lazy(() => import('./AccountPanel.tsx'));

const TITLES: Record<string, string> = {
  login: '登录',
  register: '注册',
  forget: '找回密码',
  bind: '绑定账号',
};

/** The dialog title for a form type. */
export function accountModalTitle(type: AccountModalType): string {
  return TITLES[type] ?? '账户';
}

/**
 * The account dialog the whole site opens through `openAccountModal` (SPEC §4). It is a native
 * modal <dialog>: focus stays inside, Escape closes it, and the store follows every way of closing.
 */
export default function AccountModal(): ReactElement {
  const modal = useStore($accountModal);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (modal.visible && !element.open) element.showModal();
    if (!modal.visible && element.open) element.close();
  }, [modal.visible]);

  const title = accountModalTitle(modal.type);
  return (
    <dialog
      ref={dialog}
      className="account-modal"
      onKeyDown={trapTab}
      aria-labelledby={titleId}
      onClose={closeAccountModal}
      onClick={(event) => {
        if (event.target === dialog.current) closeAccountModal();
      }}
    >
      <div className="account-modal__panel">
        <div className="account-modal__head">
          <h2 id={titleId} className="account-modal__title">
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="关闭" onClick={closeAccountModal}>
            <Icon name="close" />
          </button>
        </div>
        <div className="account-modal__body" data-account-form={modal.type}>
          {modal.visible && (
            <Suspense fallback={<p>正在加载…</p>}>
              <AccountPanel type={modal.type} onSwitch={openAccountModal} onDone={closeAccountModal} />
            </Suspense>
          )}
        </div>
        <p className="account-modal__legal">
          登录或注册即表示你同意<a href="/agreement/register">《用户注册协议》</a>。
        </p>
      </div>
    </dialog>
  );
}
