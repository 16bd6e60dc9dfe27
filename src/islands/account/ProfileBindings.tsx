import { type ReactElement, useState } from 'react';
import { unbindAccount } from '../../api/account.ts';
import { showToast } from '../../stores/toast.ts';
import BindAddressForm from './BindAddressForm.tsx';
import { PasswordField } from './fields.tsx';
import type { Profile } from './profile-types.ts';
import { useCaptcha } from './use-captcha.tsx';
import WechatLogin from './WechatLogin.tsx';

/** 138****8000: enough to recognise one's own number on a shared screen. */
export function maskMobile(mobile: string): string {
  return mobile.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2');
}

/** l***@example.com */
export function maskEmail(email: string): string {
  return email.replace(/^(.)[^@]*(@.*)$/, '$1***$2');
}

function UnbindForm({
  type,
  user,
  onDone,
}: {
  type: 'mobile' | 'email' | 'wechat';
  user: Profile;
  onDone(info: Profile): void;
}): ReactElement {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="account-form profile-row__form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          onDone((await unbindAccount({ type, ...(user.hasPassword ? { password } : {}) })) as Profile);
          showToast('已解绑', 'success');
        } catch {
          // Shown already by the API client.
        } finally {
          setBusy(false);
        }
      }}
    >
      {user.hasPassword && (
        <PasswordField label="当前密码" value={password} onChange={setPassword} autoComplete="current-password" />
      )}
      <button type="submit" className="btn account-form__submit" disabled={busy}>
        确认解绑
      </button>
    </form>
  );
}

/** The profile's bindings: mobile number, e-mail and WeChat, each bound, replaced or unbound. */
export default function ProfileBindings({
  user,
  onChange,
}: {
  user: Profile;
  onChange(info: Profile): void;
}): ReactElement {
  const captcha = useCaptcha();
  const [open, setOpen] = useState<string | null>(null);
  const done = (info: Profile) => {
    onChange(info);
    setOpen(null);
  };
  const rows = [
    { type: 'mobile' as const, label: '手机号', value: user.mobile ? maskMobile(user.mobile) : null },
    { type: 'email' as const, label: '邮箱', value: user.email ? maskEmail(user.email) : null },
  ];
  return (
    <section className="profile-section panel" aria-labelledby="profile-bindings">
      <h2 id="profile-bindings" className="profile-section__title">
        账号绑定
      </h2>
      {rows.map((row) => (
        <div className="profile-row" key={row.type}>
          <span className="profile-row__label">{row.label}</span>
          <span className="profile-row__value">{row.value ?? '未绑定'}</span>
          <span className="profile-row__actions">
            <button
              type="button"
              className="btn"
              aria-expanded={open === `bind-${row.type}`}
              onClick={() => setOpen(open === `bind-${row.type}` ? null : `bind-${row.type}`)}
            >
              {row.value ? `更换${row.label}` : `绑定${row.label}`}
            </button>
            {row.value && (
              <button
                type="button"
                className="btn btn--ghost"
                aria-expanded={open === `unbind-${row.type}`}
                onClick={() => setOpen(open === `unbind-${row.type}` ? null : `unbind-${row.type}`)}
              >
                解绑
              </button>
            )}
          </span>
          {open === `bind-${row.type}` && (
            <div className="profile-row__form">
              <BindAddressForm
                type={row.type}
                hasPassword={Boolean(user.hasPassword)}
                verify={captcha.verify}
                onBound={(info) => done(info as Profile)}
              />
            </div>
          )}
          {open === `unbind-${row.type}` && <UnbindForm type={row.type} user={user} onDone={done} />}
        </div>
      ))}
      <div className="profile-row">
        <span className="profile-row__label">微信</span>
        <span className="profile-row__value">
          {user.wechatBound ? `已绑定${user.wechatNickname ? `（${user.wechatNickname}）` : ''}` : '未绑定'}
        </span>
        <span className="profile-row__actions">
          {user.wechatBound ? (
            <button
              type="button"
              className="btn btn--ghost"
              aria-expanded={open === 'unbind-wechat'}
              onClick={() => setOpen(open === 'unbind-wechat' ? null : 'unbind-wechat')}
            >
              解绑
            </button>
          ) : (
            <WechatLogin mode="bind" redirect="/user/profile" compact />
          )}
        </span>
        {open === 'unbind-wechat' && <UnbindForm type="wechat" user={user} onDone={done} />}
      </div>
      {captcha.element}
    </section>
  );
}
