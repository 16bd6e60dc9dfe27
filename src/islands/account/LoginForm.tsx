import { type FormEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { login, smsLogin } from '../../api/account.ts';
import { RequestError } from '../../api/http.ts';
import { takeEarlySubmit } from '../../lib/early-clicks.ts';
import { checkAccount, checkCode, checkMobile, finishLogin, sendCodeWithCaptcha } from './account-flow.ts';
import { CodeField, Field, PasswordField, Tabs } from './fields.tsx';
import WechatLogin from './WechatLogin.tsx';

type Way = 'password' | 'sms' | 'wechat';

/** Props shared by the account forms. */
export interface AccountFormProps {
  /** Opens the slider puzzle and resolves with its verification. */
  verify(account?: string): Promise<string>;
  /** Called after a successful login or registration. */
  onDone(): void;
  /** Shows another form of the account panel. */
  onSwitch(type: 'login' | 'register' | 'forget'): void;
}

/** Moves focus to the first field with an error, after React has drawn it. */
export function focusFirstError(form: HTMLFormElement): void {
  window.requestAnimationFrame(() => form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
}

function PasswordLogin({ verify, onDone }: Pick<AccountFormProps, 'verify' | 'onDone'>): ReactElement {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const [replay, setReplay] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // What a quick visitor typed before the script ran lives in the fields, not in state: take it
  // over, and send a submit that was held back then once the state has it.
  useEffect(() => {
    const fields = form.current?.querySelectorAll('input');
    setAccount((value) => value || fields?.[0]?.value || '');
    setPassword((value) => value || fields?.[1]?.value || '');
    if (takeEarlySubmit(form.current)) setReplay(true);
  }, []);
  useEffect(() => {
    if (!replay) return;
    setReplay(false);
    form.current?.requestSubmit();
  }, [replay]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found = { account: checkAccount(account), password: password ? null : '请输入密码' };
    setErrors(found);
    if (found.account || found.password) return focusFirstError(form);
    setBusy(true);
    try {
      const captchaVerification = await verify(account.trim());
      // The server's refusal (a wrong password, a locked account) is shown under the password,
      // inside the dialog, rather than as a toast.
      await finishLogin(await login({ account: account.trim(), password, captchaVerification }, { quiet: true }));
      onDone();
    } catch (error) {
      // A closed puzzle needs no words; anything else is said next to the password.
      if (error instanceof RequestError) {
        // After an await React commits on its own schedule, which a busy machine can put after the
        // next frame; the error is drawn now so the focus surely finds the field it marks.
        flushSync(() => setErrors({ account: null, password: error.message }));
        form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" noValidate onSubmit={(event) => void submit(event)} aria-label="密码登录" ref={form}>
      <Field
        label="手机号或邮箱"
        value={account}
        onChange={setAccount}
        error={errors['account']}
        autoComplete="username"
        placeholder="请输入手机号或邮箱"
      />
      <PasswordField
        label="密码"
        value={password}
        onChange={setPassword}
        error={errors['password']}
        autoComplete="current-password"
        placeholder="请输入密码"
      />
      <button type="submit" className="btn btn--primary btn--lg account-form__submit" disabled={busy}>
        {busy ? '登录中…' : '登录'}
      </button>
    </form>
  );
}

function SmsLogin({ verify, onDone }: Pick<AccountFormProps, 'verify' | 'onDone'>): ReactElement {
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);

  const send = () =>
    sendCodeWithCaptcha(verify, mobile, 'login', checkMobile, (problem) => setErrors({ mobile: problem }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found = { mobile: checkMobile(mobile), code: checkCode(code) };
    setErrors(found);
    if (found.mobile || found.code) return focusFirstError(form);
    setBusy(true);
    try {
      await finishLogin(await smsLogin({ mobile: mobile.trim(), code }));
      onDone();
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" noValidate onSubmit={(event) => void submit(event)} aria-label="验证码登录">
      <Field
        label="手机号"
        value={mobile}
        onChange={setMobile}
        error={errors['mobile']}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={11}
        placeholder="11 位手机号"
      />
      <CodeField value={code} onChange={setCode} onSend={send} error={errors['code']} label="短信验证码" />
      <button type="submit" className="btn btn--primary btn--lg account-form__submit" disabled={busy}>
        {busy ? '登录中…' : '登录'}
      </button>
    </form>
  );
}

/** The login form with its three ways in: password (mobile or e-mail), SMS code, and WeChat. */
export default function LoginForm({ verify, onDone, onSwitch }: AccountFormProps): ReactElement {
  const [way, setWay] = useState<Way>('password');
  return (
    <div className="account-panel">
      <Tabs<Way>
        label="登录方式"
        current={way}
        onChange={setWay}
        tabs={[
          { id: 'password', label: '密码登录' },
          { id: 'sms', label: '验证码登录' },
          { id: 'wechat', label: '微信登录' },
        ]}
      />
      <div role="tabpanel" className="account-panel__body">
        {way === 'password' && <PasswordLogin verify={verify} onDone={onDone} />}
        {way === 'sms' && <SmsLogin verify={verify} onDone={onDone} />}
        {way === 'wechat' && <WechatLogin />}
      </div>
      <p className="account-panel__links">
        <button type="button" className="account-modal__link" onClick={() => onSwitch('forget')}>
          忘记密码？
        </button>
        <span>
          还没有账户？
          <button type="button" className="account-modal__link" onClick={() => onSwitch('register')}>
            注册新账户
          </button>
        </span>
      </p>
    </div>
  );
}
