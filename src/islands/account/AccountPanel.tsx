import { useStore } from '@nanostores/react';
import { type ReactElement, useState } from 'react';
import type { UserInfo } from '../../api/account.ts';
import '../../styles/account.css';
import { $token, $userInfo, type AccountModalType, loadUserInfo } from '../../stores/user.ts';
import BindAddressForm from './BindAddressForm.tsx';
import ForgetForm from './ForgetForm.tsx';
import LoginForm from './LoginForm.tsx';
import RegisterForm from './RegisterForm.tsx';
import { useCaptcha } from './use-captcha.tsx';

/** Props of {@link AccountPanel}. */
export interface AccountPanelProps {
  type: AccountModalType;
  onSwitch(type: 'login' | 'register' | 'forget'): void;
  /** Called once the person is signed in (or has bound an address). */
  onDone(): void;
}

function BindPanel({ verify, onDone }: { verify(): Promise<string>; onDone(): void }): ReactElement {
  const token = useStore($token);
  const user = useStore($userInfo);
  const [type, setType] = useState<'mobile' | 'email'>(user?.mobile ? 'email' : 'mobile');
  if (!token) return <p className="account-panel__note">请先登录，再绑定手机号或邮箱。</p>;
  return (
    <div className="account-panel">
      <fieldset className="account-choice">
        <legend className="account-field__label">绑定什么</legend>
        {(['mobile', 'email'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="bind-type" checked={type === value} onChange={() => setType(value)} />
            {value === 'mobile' ? '手机号' : '邮箱'}
          </label>
        ))}
      </fieldset>
      <BindAddressForm
        key={type}
        type={type}
        hasPassword={Boolean((user as UserInfo | null)?.['hasPassword'])}
        verify={verify}
        onBound={() => {
          void loadUserInfo().catch(() => undefined);
          onDone();
        }}
      />
    </div>
  );
}

/**
 * The forms of the account dialog and of /account/admission: login (password, SMS code, WeChat),
 * registration, password recovery and binding, with the slider puzzle in front of the actions
 * that need it.
 */
export default function AccountPanel({ type, onSwitch, onDone }: AccountPanelProps): ReactElement {
  const captcha = useCaptcha();
  const props = { verify: captcha.verify, onDone, onSwitch };
  return (
    <>
      {type === 'register' ? (
        <RegisterForm {...props} />
      ) : type === 'forget' ? (
        <ForgetForm verify={captcha.verify} onSwitch={onSwitch} />
      ) : type === 'bind' ? (
        <BindPanel verify={captcha.verify} onDone={onDone} />
      ) : (
        <LoginForm {...props} />
      )}
      {captcha.element}
    </>
  );
}
