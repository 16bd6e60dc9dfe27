import { type FormEvent, type ReactElement, useRef, useState } from 'react';
import { updateAccountInfo, uploadAccountInfo } from '../../api/account.ts';
import { showToast } from '../../stores/toast.ts';
import AvatarCropper from './AvatarCropper.tsx';
import { Field } from './fields.tsx';
import { focusFirstError } from './LoginForm.tsx';
import type { Profile } from './profile-types.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** The profile's basic section: the avatar (chosen, cropped in the browser, uploaded) and the nickname. */
export default function ProfileAvatar({
  user,
  onChange,
}: {
  user: Profile;
  onChange(info: Profile): void;
}): ReactElement {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [nickname, setNickname] = useState(user.nickname ?? '');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const name = user.nickname || '我';

  async function upload(image: Blob): Promise<void> {
    setBusy(true);
    try {
      onChange((await uploadAccountInfo({ file: image, filename: 'avatar.png' })) as Profile);
      showToast('头像已更新', 'success');
      setFile(null);
    } catch {
      // Shown already by the API client.
    } finally {
      setBusy(false);
    }
  }

  async function saveNickname(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const value = nickname.trim();
    const problem = !value || [...value].length > 20 ? '昵称请填写 1 到 20 个字符' : null;
    setError(problem);
    if (problem) return focusFirstError(event.currentTarget);
    try {
      onChange((await updateAccountInfo({ nickname: value })) as Profile);
      showToast('昵称已保存', 'success');
    } catch {
      // Shown already by the API client.
    }
  }

  return (
    <section className="profile-section panel" aria-labelledby="profile-basic">
      <h2 id="profile-basic" className="profile-section__title">
        基本资料
      </h2>
      <div className="profile-avatar">
        <div className="profile-avatar__image">
          {user.avatar ? <img src={user.avatar} alt="当前头像" /> : <span aria-hidden="true">{name.slice(0, 1)}</span>}
        </div>
        <div>
          <input
            ref={input}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            className="visually-hidden"
            id="avatar-file"
            aria-label="选择头像图片"
            tabIndex={-1}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (!chosen) return;
              if (!IMAGE_TYPES.includes(chosen.type)) {
                showToast('请选择 JPG、PNG、WebP 或 GIF 图片', 'warning');
                return;
              }
              setFile(chosen);
            }}
          />
          <button type="button" className="btn" onClick={() => input.current?.click()}>
            更换头像
          </button>
          <p className="account-field__hint">支持 JPG、PNG、WebP、GIF，裁剪成正方形后保存。</p>
        </div>
      </div>
      {file && (
        <AvatarCropper
          file={file}
          busy={busy}
          onCancel={() => setFile(null)}
          onCropped={(image) => void upload(image)}
        />
      )}
      <form className="account-form profile-row__form" noValidate onSubmit={(event) => void saveNickname(event)}>
        <Field
          label="昵称"
          value={nickname}
          onChange={setNickname}
          error={error}
          maxLength={20}
          autoComplete="nickname"
        />
        <button type="submit" className="btn account-form__submit">
          保存昵称
        </button>
      </form>
    </section>
  );
}
