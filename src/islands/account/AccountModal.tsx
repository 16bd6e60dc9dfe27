import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useId, useRef } from 'react';
import { $accountModal, type AccountModalType, closeAccountModal, openAccountModal } from '../../stores/user.ts';
import { Icon } from '../common/icons.tsx';
import { trapTab } from '../common/trap-tab.ts';

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
          {modal.type === 'login' && (
            <>
              <p>登录后可以收藏字体、加入字体对比、下载字体文件，并在个人中心查看投稿进度。</p>
              <p className="account-modal__switch">
                还没有账户？
                <button type="button" className="account-modal__link" onClick={() => openAccountModal('register')}>
                  注册新账户
                </button>
              </p>
            </>
          )}
          {modal.type === 'register' && (
            <>
              <p>可以用手机号或邮箱注册造字联盟账户。</p>
              <p className="account-modal__switch">
                已有账户？
                <button type="button" className="account-modal__link" onClick={() => openAccountModal('login')}>
                  直接登录
                </button>
              </p>
            </>
          )}
          {modal.type === 'forget' && <p>通过账户绑定的手机号或邮箱接收验证码，重新设置密码。</p>}
        </div>
        <p className="account-modal__legal">
          登录或注册即表示你同意<a href="/agreement/register">《用户注册协议》</a>。
        </p>
      </div>
    </dialog>
  );
}
