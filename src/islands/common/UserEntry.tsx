import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { $token, $userInfo, logout, openAccountModal } from '../../stores/user.ts';
import { Icon } from './icons.tsx';
import { useHydrated } from './use-hydrated.ts';

/** The header's account corner: a login button for visitors, the avatar and a small menu for users. */
export default function UserEntry(): ReactElement {
  const hydrated = useHydrated();
  const token = useStore($token);
  const user = useStore($userInfo);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!hydrated || !token) {
    return (
      <button type="button" className="btn user-entry__login" onClick={() => openAccountModal('login')}>
        <Icon name="user" className="user-entry__login-icon" />
        <span>登录</span>
      </button>
    );
  }

  const name = user?.nickname || user?.mobile || user?.email || '我的账户';
  return (
    <div className="user-entry" ref={root}>
      <button
        type="button"
        className="user-entry__avatar"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`${name}的账户菜单`}
        onClick={() => setOpen(!open)}
      >
        {user?.avatar ? (
          <img src={user.avatar} alt="" width={32} height={32} />
        ) : (
          <span aria-hidden="true">{name.slice(0, 1)}</span>
        )}
      </button>
      <div className="user-entry__menu" id={menuId} hidden={!open}>
        <p className="user-entry__name">{name}</p>
        <a href="/user/overview">个人中心</a>
        <a href="/user/favorite">我的收藏</a>
        <a href="/user/compare">字体对比</a>
        <a href="/user/message">消息通知</a>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            void logout();
          }}
        >
          <Icon name="logout" className="user-entry__menu-icon" />
          退出登录
        </button>
      </div>
    </div>
  );
}
