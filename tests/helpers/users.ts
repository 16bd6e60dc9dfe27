import type { UserInfo } from '../../src/contract/accounts.ts';

/** A signed-in user as `account/user-info` answers it, with `fields` set. */
export function userInfo(fields: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 1,
    nickname: '墨',
    avatar: null,
    mobile: null,
    email: 'reader@example.com',
    wechatBound: false,
    wechatNickname: null,
    hasPassword: true,
    role: 'user',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}
