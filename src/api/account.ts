import type { LoginResult, UserInfo } from '../contract/accounts.ts';
import { get, post, put } from './http.ts';
import type { BodyOf } from './types.ts';
import { type FormValue, postForm, type UploadInput, uploadFile } from './upload.ts';

export type { LoginResult, UserInfo };

const BASE = '/web/api/account';

/** The signed-in user's profile. */
export const getUserInfo = () => get<UserInfo>(`${BASE}/user-info`);

/** Sends a one-time code by SMS or e-mail. */
export const sendCode = (body: BodyOf<'/web/api/account/sendCode', 'post'>) =>
  post<{ cooldown: number }>(`${BASE}/sendCode`, body);

/** Logs in with an account (mobile or e-mail) and password. */
export const login = (body: BodyOf<'/web/api/login', 'post'>, options: { quiet?: boolean } = {}) =>
  post<LoginResult>('/web/api/login', body, options);

/** Logs in with a mobile number and an SMS code. */
export const smsLogin = (body: BodyOf<'/web/api/sms-login', 'post'>) => post<LoginResult>('/web/api/sms-login', body);

/** Registers with a mobile number. */
export const registerByPhone = (body: BodyOf<'/web/api/account/register/phone', 'post'>) =>
  post<LoginResult>(`${BASE}/register/phone`, body);

/** Registers with an e-mail address. */
export const registerByEmail = (body: BodyOf<'/web/api/account/register/email', 'post'>) =>
  post<LoginResult>(`${BASE}/register/email`, body);

/** Ends the session on the server. Quiet: a failure is only logged by the caller (SPEC §8). */
export const logout = () => post<null>('/web/api/logout', undefined, { quiet: true });

/** Sets a new password with a verified reset code. */
export const resetPassword = (body: BodyOf<'/web/api/account/rest-pwd', 'put'>) => put<null>(`${BASE}/rest-pwd`, body);

/** Checks a password-reset code before the new password is asked for. */
export const verifyResetCode = (body: BodyOf<'/web/api/account/rest-code-verify', 'post'>) =>
  post<null>(`${BASE}/rest-code-verify`, body);

/** Binds a mobile number, e-mail or WeChat to the account. */
export const bindAccount = (body: BodyOf<'/web/api/account/bind-account', 'put'>) =>
  put<UserInfo>(`${BASE}/bind-account`, body);

/** Unbinds a mobile number, e-mail or WeChat. */
export const unbindAccount = (body: BodyOf<'/web/api/account/unbind-account', 'put'>) =>
  put<UserInfo>(`${BASE}/unbind-account`, body);

/** Changes the password. */
export const updatePassword = (body: BodyOf<'/web/api/account/update-account-pwd', 'put'>) =>
  put<null>(`${BASE}/update-account-pwd`, body);

/** Updates profile fields as a multipart form. */
export const updateAccountInfo = (data: Record<string, FormValue>) =>
  postForm<UserInfo>(`${BASE}/update-account-info`, data);

/** Uploads a new avatar with the profile fields. */
export const uploadAccountInfo = (input: UploadInput) => uploadFile<UserInfo>(`${BASE}/update-account-info`, input);
