import { useStore } from '@nanostores/react';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { getUserInfo, updatePassword } from '../../api/account.ts';
import '../../styles/account.css';
import '../../styles/profile.css';
import { showToast } from '../../stores/toast.ts';
import { $userInfo } from '../../stores/user.ts';
import { checkNewPassword, PASSWORD_MAX, PASSWORD_MIN } from './account-flow.ts';
import { PasswordField } from './fields.tsx';
import { focusFirstError } from './LoginForm.tsx';
import ProfileAvatar from './ProfileAvatar.tsx';
import ProfileBindings from './ProfileBindings.tsx';
import type { Profile } from './profile-types.ts';

function PasswordSection({ user }: { user: Profile }): ReactElement {
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const found = {
      oldPassword: user.hasPassword && !oldPassword ? '请输入当前密码' : null,
      password: checkNewPassword(password),
      again: again === password ? null : '两次输入的密码不一致',
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return focusFirstError(form);
    setBusy(true);
    try {
      await updatePassword({ ...(user.hasPassword ? { oldPassword } : {}), password });
      showToast('密码已修改，其他设备需要重新登录', 'success');
      setOldPassword('');
      setPassword('');
      setAgain('');
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="profile-section panel" aria-labelledby="profile-password">
      <h2 id="profile-password" className="profile-section__title">
        {user.hasPassword ? '修改密码' : '设置密码'}
      </h2>
      <form className="account-form profile-row__form" noValidate onSubmit={(event) => void submit(event)}>
        {user.hasPassword && (
          <PasswordField
            label="当前密码"
            value={oldPassword}
            onChange={setOldPassword}
            error={errors['oldPassword']}
            autoComplete="current-password"
          />
        )}
        <PasswordField
          label="新密码"
          value={password}
          onChange={setPassword}
          error={errors['password']}
          autoComplete="new-password"
          hint={`${PASSWORD_MIN}–${PASSWORD_MAX} 个字符；修改后其他设备需要重新登录`}
        />
        <PasswordField
          label="再次输入新密码"
          value={again}
          onChange={setAgain}
          error={errors['again']}
          autoComplete="new-password"
        />
        <button type="submit" className="btn btn--primary account-form__submit" disabled={busy}>
          {busy ? '提交中…' : '保存新密码'}
        </button>
      </form>
    </section>
  );
}

/**
 * /user/profile: nickname and avatar, mobile, e-mail and WeChat bindings, and the password. The page
 * renders it with the account it read on the server (`initial`), so the sections are there from the
 * first paint instead of replacing a loading line (which moved the whole page down as they arrived).
 */
export default function ProfileManager({ initial = null }: { initial?: Profile | null }): ReactElement {
  const stored = useStore($userInfo) as Profile | null;
  const [user, setUser] = useState<Profile | null>(initial ?? stored);

  useEffect(() => {
    void getUserInfo()
      .then((info) => {
        setUser(info as Profile);
        $userInfo.set(info);
      })
      .catch(() => undefined);
  }, []);

  const update = (info: Profile) => {
    setUser(info);
    $userInfo.set(info);
  };

  if (!user) return <p role="status">正在加载账户信息…</p>;
  return (
    <div className="profile">
      <ProfileAvatar user={user} onChange={update} />
      <ProfileBindings user={user} onChange={update} />
      <PasswordSection user={user} />
    </div>
  );
}
