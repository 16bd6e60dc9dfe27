import type { UserInfo } from '../../api/account.ts';

/** The account fields the profile page works with. */
export type Profile = UserInfo & { wechatBound?: boolean; wechatNickname?: string | null; hasPassword?: boolean };
