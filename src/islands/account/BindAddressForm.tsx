import { type FormEvent, type ReactElement, useState } from 'react';
import { bindAccount, type UserInfo } from '../../api/account.ts';
import { showToast } from '../../stores/toast.ts';
import { checkCode, checkEmail, checkMobile, sendCodeWithCaptcha } from './account-flow.ts';
import { CodeField, Field, PasswordField } from './fields.tsx';
import { focusFirstError } from './LoginForm.tsx';

/** Props of {@link BindAddressForm}. */
export interface BindAddressFormProps {
  type: 'mobile' | 'email';
  /** Accounts with a password confirm it before the change (ASVS 7.5.1). */
  hasPassword: boolean;
  verify(): Promise<string>;
  onBound(info: UserInfo): void;
}

/** Binds a new mobile number or e-mail address (or replaces the current one) with a code sent to it. */
export default function BindAddressForm({ type, hasPassword, verify, onBound }: BindAddressFormProps): ReactElement {
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const check = type === 'mobile' ? checkMobile : checkEmail;
  const noun = type === 'mobile' ? '手机号' : '邮箱';

  const send = () => sendCodeWithCaptcha(verify, account, 'bind', check, (problem) => setErrors({ account: problem }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found = {
      account: check(account),
      code: checkCode(code),
      password: hasPassword && !password ? '请输入当前密码' : null,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return focusFirstError(form);
    setBusy(true);
    try {
      const info = await bindAccount({ type, account: account.trim(), code, ...(hasPassword ? { password } : {}) });
      showToast(`${noun}已绑定`, 'success');
      onBound(info as UserInfo);
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" noValidate onSubmit={(event) => void submit(event)} aria-label={`绑定${noun}`}>
      <Field
        label={`新${noun}`}
        value={account}
        onChange={setAccount}
        error={errors['account']}
        type={type === 'mobile' ? 'tel' : 'email'}
        inputMode={type === 'mobile' ? 'numeric' : 'email'}
        maxLength={type === 'mobile' ? 11 : 254}
        autoComplete={type === 'mobile' ? 'tel' : 'email'}
      />
      <CodeField value={code} onChange={setCode} onSend={send} error={errors['code']} />
      {hasPassword && (
        <PasswordField
          label="当前密码"
          value={password}
          onChange={setPassword}
          error={errors['password']}
          autoComplete="current-password"
        />
      )}
      <button type="submit" className="btn btn--primary account-form__submit" disabled={busy}>
        {busy ? '提交中…' : `绑定${noun}`}
      </button>
    </form>
  );
}
