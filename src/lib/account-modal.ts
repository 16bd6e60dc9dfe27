// Titles of the account forms, shared by the site's account dialog and /account/admission.

const TITLES: Record<string, string> = {
  login: '登录',
  register: '注册',
  forget: '找回密码',
  bind: '绑定账号',
};

/** The dialog or page title for a form type (`login`, `register`, `forget`, `bind`). */
export function accountModalTitle(type: string): string {
  return TITLES[type] ?? '账户';
}
