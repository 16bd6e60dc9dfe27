// Shapes of the account API, shared by the server (src/server/accounts) and the browser client (src/api/account.ts).

/** What a one-time code is for. */
export const CODE_PURPOSES = ['login', 'register', 'reset', 'bind'] as const;
/** One purpose of a one-time code. */
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** The signed-in user as `account/user-info` answers it. */
export interface UserInfo {
  id: number;
  nickname: string;
  avatar: string | null;
  mobile: string | null;
  email: string | null;
  /** True when WeChat is bound (the ids themselves stay on the server). */
  wechatBound: boolean;
  wechatNickname: string | null;
  /** False for accounts made through WeChat that never set a password. */
  hasPassword: boolean;
  role: string;
  createdAt: string;
}

/** A successful login: the token and its cookie lifetime in seconds (SPEC §3). */
export interface LoginResult {
  token: string;
  expired: number;
}
