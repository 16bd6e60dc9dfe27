import { type FormEvent, type ReactElement, useState } from 'react';
import { resetPassword, verifyResetCode } from '../../api/account.ts';
import { showToast } from '../../stores/toast.ts';
import {
  checkAccount,
  checkCode,
  checkNewPassword,
  PASSWORD_MAX,
  PASSWORD_MIN,
  sendCodeWithCaptcha,
} from './account-flow.ts';
import { CodeField, Field, PasswordField } from './fields.tsx';
import { type AccountFormProps, focusFirstError } from './LoginForm.tsx';

/**
 * Password recovery in two steps: the mobile number or e-mail and a code sent to it, then the new
 * password. Afterwards every session has ended and the person signs in again.
 */
export default function ForgetForm({ verify, onSwitch }: Omit<AccountFormProps, 'onDone'>): ReactElement {
  const [step, setStep] = useState<'verify' | 'reset'>('verify');
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);

  const send = () =>
    sendCodeWithCaptcha(verify, account, 'reset', checkAccount, (problem) => setErrors({ account: problem }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found =
      step === 'verify'
        ? { account: checkAccount(account), code: checkCode(code) }
        : { password: checkNewPassword(password), again: again === password ? null : '两次输入的密码不一致' };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return focusFirstError(form);
    setBusy(true);
    try {
      if (step === 'verify') {
        await verifyResetCode({ account: account.trim(), code });
        setStep('reset');
      } else {
        await resetPassword({ account: account.trim(), code, password });
        showToast('密码已重置，请用新密码登录', 'success');
        onSwitch('login');
      }
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="account-panel">
      <ol className="account-steps" aria-label="找回密码步骤">
        <li aria-current={step === 'verify' ? 'step' : undefined}>验证身份</li>
        <li aria-current={step === 'reset' ? 'step' : undefined}>设置新密码</li>
      </ol>
      <form className="account-form" noValidate onSubmit={(event) => void submit(event)} aria-label="找回密码">
        {step === 'verify' ? (
          <>
            <Field
              label="手机号或邮箱"
              value={account}
              onChange={setAccount}
              error={errors['account']}
              autoComplete="username"
              placeholder="账户绑定的手机号或邮箱"
            />
            <CodeField value={code} onChange={setCode} onSend={send} error={errors['code']} />
          </>
        ) : (
          <>
            <PasswordField
              label="新密码"
              value={password}
              onChange={setPassword}
              error={errors['password']}
              autoComplete="new-password"
              hint={`${PASSWORD_MIN}–${PASSWORD_MAX} 个字符，重置后所有设备需要重新登录`}
            />
            <PasswordField
              label="再次输入新密码"
              value={again}
              onChange={setAgain}
              error={errors['again']}
              autoComplete="new-password"
            />
          </>
        )}
        <button type="submit" className="btn btn--primary btn--lg account-form__submit" disabled={busy}>
          {step === 'verify' ? (busy ? '验证中…' : '下一步') : busy ? '提交中…' : '重置密码'}
        </button>
      </form>
      <p className="account-panel__links">
        <button type="button" className="account-modal__link" onClick={() => onSwitch('login')}>
          返回登录
        </button>
      </p>
    </div>
  );
}
