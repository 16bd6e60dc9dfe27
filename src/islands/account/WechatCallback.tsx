import { type ReactElement, useEffect, useRef, useState } from 'react';
import { post } from '../../api/http.ts';
import { safeRedirectPath } from '../../lib/routes.ts';
import { showToast } from '../../stores/toast.ts';
import { finishLogin } from './account-flow.ts';

interface CallbackAnswer {
  mode: 'login' | 'bind';
  redirect: string;
  token?: string;
  expired?: number;
}

/**
 * /account/wechat: WeChat sends the visitor back here with `code` and `state`; this asks the server
 * to finish the login (or binding) and then goes on to the page the visitor came from.
 */
export default function WechatCallback(): ReactElement {
  const [error, setError] = useState('');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = new URLSearchParams(location.search);
    const state = query.get('state') ?? undefined;
    const code = query.get('code') ?? undefined;
    if (!state) {
      setError('缺少微信返回的参数，请回到登录窗口重新扫码。');
      return;
    }
    // The code is single use: take it out of the address so a reload does not send it again.
    history.replaceState(null, '', location.pathname);
    void (async () => {
      try {
        const answer = await post<CallbackAnswer>('/web/api/wechat/callback', { code, state }, { quiet: true });
        if (answer.mode === 'login' && answer.token) {
          await finishLogin({ token: answer.token, expired: answer.expired ?? 0 }, '微信登录成功');
        } else {
          showToast('微信已绑定', 'success');
        }
        location.replace(safeRedirectPath(answer.redirect) ?? '/');
      } catch (failure) {
        setError((failure as Error).message || '微信登录没有完成，请重新扫码。');
      }
    })();
  }, []);

  return error ? (
    <div className="wechat-callback" role="alert">
      <p>{error}</p>
      <p>
        <a className="btn btn--primary" href="/account/admission">
          回到登录
        </a>
      </p>
    </div>
  ) : (
    <p className="wechat-callback" role="status">
      正在完成微信登录，请稍候…
    </p>
  );
}
