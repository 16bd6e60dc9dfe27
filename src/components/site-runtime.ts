// The browser start-up every page runs once: chunk-reload guard, session and friendly links, the
// login guard for links into the user centre, the redirect after login, and the service worker.

import { installChunkReloadGuard } from '../lib/chunk-reload.ts';
import { goLive } from '../lib/early-clicks.ts';
import { plainLinkClick } from '../lib/plain-click.ts';
import { loginRedirectUrl, requiresLogin, safeRedirectPath } from '../lib/routes.ts';
import { navItem } from '../lib/site-map.ts';
import { startSite } from '../stores/app.ts';
import { $token, isLoggedIn, openAccountModal } from '../stores/user.ts';

/** The `redirect` parameter of the current address, when it is a safe path on this site. */
function redirectTarget(): string | null {
  return safeRedirectPath(new URLSearchParams(location.search).get('redirect'));
}

/**
 * The browser side of SPEC §2's guard: a click on a link into /user without a login stays on this
 * site's home page with the login modal open, as the server would answer the same request.
 */
function guardUserLinks(): void {
  document.addEventListener('click', (event) => {
    const url = plainLinkClick(event);
    if (!url || !requiresLogin(url.pathname) || isLoggedIn()) return;
    event.preventDefault();
    const target = loginRedirectUrl(url.pathname + url.search);
    if (location.pathname === '/') {
      history.pushState(null, '', target);
      openAccountModal('login');
    } else {
      location.assign(target);
    }
  });
}

/** On the home page with `?redirect=`: open the login modal, and go on to the target after login. */
function handleLoginRedirect(): void {
  if (location.pathname !== '/') return;
  const target = redirectTarget();
  if (!target) return;
  if (isLoggedIn()) {
    location.replace(target);
    return;
  }
  const page = navItem(target.split(/[?#]/)[0] ?? '');
  openAccountModal(
    'login',
    page ? `「${page.label}」需要登录，登录后会带你回到那里。` : '这个页面需要登录，登录后会带你回到那里。',
  );
  $token.listen((token) => {
    const next = redirectTarget();
    if (token && next) location.assign(next);
  });
}

/** Buttons rendered on the server open the account dialog with `data-open-account="login"` etc. */
function bindAccountButtons(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.('[data-open-account]');
    if (!button) return;
    event.preventDefault();
    openAccountModal(button.getAttribute('data-open-account') || 'login');
  });
  goLive('[data-open-account]');
}

/** Registers the service worker at the root with root scope; a failure changes nothing (SPEC §2). */
function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/** Runs the start-up steps; the layout calls it once per page. */
export function runSite(): void {
  installChunkReloadGuard(window);
  guardUserLinks();
  bindAccountButtons();
  handleLoginRedirect();
  void startSite();
  registerServiceWorker();
}
