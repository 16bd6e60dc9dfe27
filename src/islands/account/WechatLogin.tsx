import { type ReactElement, useEffect, useState } from 'react';
import { get, post } from '../../api/http.ts';

type Availability = 'unknown' | 'enabled' | 'disabled';

/** Whether WeChat login is set up on this server (asked once per page). */
let availability: Promise<boolean> | undefined;
function wechatEnabled(): Promise<boolean> {
  availability ??= get<{ enabled: boolean }>('/web/api/wechat/config', undefined, { quiet: true })
    .then((config) => config.enabled)
    .catch(() => false);
  return availability;
}

/** Props of {@link WechatLogin}. */
export interface WechatLoginProps {
  /** 'login' signs in; 'bind' attaches WeChat to the signed-in account. */
  mode?: 'login' | 'bind';
  /** Where to return after WeChat (a path on this site); the current page by default. */
  redirect?: string;
  label?: string;
  /** A plain-sized button for rows of the profile page. */
  compact?: boolean;
}

/**
 * The WeChat button: it sends the visitor to WeChat's QR page, which returns to /account/wechat.
 * When the server has no WeChat app configured, it says so instead.
 */
export default function WechatLogin({ mode = 'login', redirect, label, compact }: WechatLoginProps): ReactElement {
  const [state, setState] = useState<Availability>('unknown');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void wechatEnabled().then((enabled) => setState(enabled ? 'enabled' : 'disabled'));
  }, []);

  async function start(): Promise<void> {
    if (state === 'disabled') return;
    setBusy(true);
    try {
      const target = redirect ?? `${location.pathname}${location.search}`;
      const { url } = await post<{ url: string }>('/web/api/wechat/authorize', { mode, redirect: target });
      location.assign(url);
    } catch {
      setBusy(false);
    }
  }

  return (
    <div className={compact ? 'wechat-login wechat-login--compact' : 'wechat-login'}>
      <button
        type="button"
        className={compact ? 'btn wechat-login__button' : 'btn btn--lg wechat-login__button'}
        onClick={() => void start()}
        disabled={busy || state === 'unknown'}
        aria-disabled={state === 'disabled' || undefined}
        aria-describedby={state === 'disabled' ? 'wechat-login-note' : undefined}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M9.1 4C5.2 4 2 6.6 2 9.9c0 1.9 1 3.5 2.7 4.6l-.7 2.1 2.5-1.3c.8.2 1.7.4 2.6.4h.7a5.6 5.6 0 0 1-.2-1.5c0-3.1 3-5.6 6.7-5.6h.6C16.3 5.9 13 4 9.1 4Zm-2.3 3.1a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8Zm4.7 0a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8ZM16.3 9.6c-3.2 0-5.7 2.1-5.7 4.7s2.5 4.7 5.7 4.7c.7 0 1.3-.1 1.9-.3l2 1.1-.5-1.8c1.4-.9 2.3-2.2 2.3-3.7 0-2.6-2.5-4.7-5.7-4.7Zm-1.9 2.6a.7.7 0 1 1 0 1.5.7.7 0 0 1 0-1.5Zm3.8 0a.7.7 0 1 1 0 1.5.7.7 0 0 1 0-1.5Z"
          />
        </svg>
        {busy ? '正在前往微信…' : (label ?? (mode === 'bind' ? '绑定微信' : '微信扫码登录'))}
      </button>
      {state === 'disabled' ? (
        <p id="wechat-login-note" className="wechat-login__note" role="status">
          本站尚未开通微信登录，请使用手机号或邮箱登录。
        </p>
      ) : (
        mode === 'login' && <p className="wechat-login__note">将前往微信扫码页面，在手机上确认后自动回到本站。</p>
      )}
    </div>
  );
}
