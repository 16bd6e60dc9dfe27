import { type ReactElement, useEffect, useState } from 'react';
import '../../styles/account.css';
import { accountModalTitle } from '../../lib/account-modal.ts';
import { safeRedirectPath } from '../../lib/routes.ts';
import type { AccountModalType } from '../../stores/user.ts';
import AccountPanel from './AccountPanel.tsx';

const TYPES = ['login', 'register', 'forget'] as const;

function returnTarget(): string {
  return safeRedirectPath(new URLSearchParams(location.search).get('redirect')) ?? '/';
}

/**
 * /account/admission: the account forms on a page of their own (for links and redirects that need a
 * login away from the home page). `?type=register|forget` opens another form, `?redirect=` says where
 * to go afterwards.
 */
export default function AccountEntry(): ReactElement {
  const [type, setType] = useState<AccountModalType>('login');

  useEffect(() => {
    const asked = new URLSearchParams(location.search).get('type');
    if (asked && (TYPES as readonly string[]).includes(asked)) setType(asked);
  }, []);

  return (
    <section className="account-entry panel" aria-labelledby="account-entry-title">
      <h1 id="account-entry-title" className="account-entry__title">
        {accountModalTitle(type)}
      </h1>
      <AccountPanel type={type} onSwitch={setType} onDone={() => location.assign(returnTarget())} />
      <p className="account-entry__legal">
        登录或注册即表示你同意<a href="/agreement/register">《用户注册协议》</a>。
      </p>
    </section>
  );
}
