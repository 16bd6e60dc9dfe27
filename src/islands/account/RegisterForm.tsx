import { type FormEvent, type ReactElement, useState } from 'react';
import { registerByEmail, registerByPhone } from '../../api/account.ts';
import {
  checkCode,
  checkEmail,
  checkMobile,
  checkNewPassword,
  finishLogin,
  PASSWORD_MAX,
  PASSWORD_MIN,
  sendCodeWithCaptcha,
} from './account-flow.ts';
import { CodeField, Field, PasswordField, Tabs } from './fields.tsx';
import { type AccountFormProps, focusFirstError } from './LoginForm.tsx';

type By = 'phone' | 'email';

/** Registration by mobile number or e-mail: the address, a code sent to it, a password, the agreement. */
export default function RegisterForm({ verify, onDone, onSwitch }: AccountFormProps): ReactElement {
  const [by, setBy] = useState<By>('phone');
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const check = by === 'phone' ? checkMobile : checkEmail;

  const send = () =>
    sendCodeWithCaptcha(verify, account, 'register', check, (problem) => setErrors({ account: problem }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found = {
      account: check(account),
      code: checkCode(code),
      password: checkNewPassword(password),
      agreed: agreed ? null : '请阅读并同意《用户注册协议》',
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return focusFirstError(form);
    setBusy(true);
    try {
      const result =
        by === 'phone'
          ? await registerByPhone({ mobile: account.trim(), code, password })
          : await registerByEmail({ email: account.trim(), code, password });
      await finishLogin(result, '注册成功，已为你登录');
      onDone();
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="account-panel">
      <Tabs<By>
        label="注册方式"
        current={by}
        onChange={(next) => {
          setBy(next);
          setAccount('');
          setCode('');
          setErrors({});
        }}
        tabs={[
          { id: 'phone', label: '手机号注册' },
          { id: 'email', label: '邮箱注册' },
        ]}
      />
      <form
        role="tabpanel"
        className="account-form account-panel__body"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-label={by === 'phone' ? '手机号注册' : '邮箱注册'}
      >
        {by === 'phone' ? (
          <Field
            label="手机号"
            value={account}
            onChange={setAccount}
            error={errors['account']}
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            maxLength={11}
            placeholder="11 位手机号"
          />
        ) : (
          <Field
            label="邮箱"
            value={account}
            onChange={setAccount}
            error={errors['account']}
            type="email"
            autoComplete="email"
            placeholder="name@example.com"
          />
        )}
        <CodeField value={code} onChange={setCode} onSend={send} error={errors['code']} />
        <PasswordField
          label="设置密码"
          value={password}
          onChange={setPassword}
          error={errors['password']}
          autoComplete="new-password"
          hint={`${PASSWORD_MIN}–${PASSWORD_MAX} 个字符，不要用常见密码`}
        />
        <div className="account-check" data-state={errors['agreed'] ? 'error' : 'idle'}>
          <input
            id="register-agree"
            type="checkbox"
            checked={agreed}
            onChange={(event) => setAgreed(event.target.checked)}
            aria-invalid={errors['agreed'] ? true : undefined}
            aria-describedby={errors['agreed'] ? 'register-agree-error' : undefined}
          />
          <label htmlFor="register-agree">
            我已阅读并同意
            <a href="/agreement/register" target="_blank" rel="noopener">
              《用户注册协议》
            </a>
          </label>
          {errors['agreed'] && (
            <p id="register-agree-error" className="account-field__error">
              {errors['agreed']}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn--primary btn--lg account-form__submit" disabled={busy}>
          {busy ? '注册中…' : '注册'}
        </button>
      </form>
      <p className="account-panel__links">
        <span>
          已有账户？
          <button type="button" className="account-modal__link" onClick={() => onSwitch('login')}>
            直接登录
          </button>
        </span>
      </p>
    </div>
  );
}
