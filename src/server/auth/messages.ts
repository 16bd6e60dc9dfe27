import type { CodeChannel, CodePurpose } from '../db/schema/index.ts';

/** A one-time code on its way to a person, by e-mail or SMS. */
export interface CodeMessage {
  channel: CodeChannel;
  /** The mobile number or e-mail address. */
  to: string;
  purpose: CodePurpose;
  code: string;
  /** The subject line (e-mail only, but always filled). */
  subject: string;
  /** The whole message as the recipient reads it. */
  text: string;
}

/** An e-mail copy of a site message (notification), for users who asked for copies. */
export interface NoticeMessage {
  channel: 'email';
  to: string;
  purpose: 'notice';
  subject: string;
  text: string;
}

/** Whatever the site sends a person: a one-time code, or an e-mail copy of a message. */
export type OutgoingMessage = CodeMessage | NoticeMessage;

/** Something that delivers messages: SMTP, an SMS provider (codes only) or the local outbox. */
export interface MessageSender {
  /** A short name for logs ('smtp', 'aliyun', 'outbox'). */
  readonly name: string;
  send(message: OutgoingMessage): Promise<void>;
}

const PURPOSE_NAMES: Record<CodePurpose, string> = {
  login: '登录',
  register: '注册',
  reset: '找回密码',
  bind: '绑定账号',
};

/** Writes the message a person receives with a code. */
export function composeCodeMessage(input: {
  channel: CodeChannel;
  to: string;
  purpose: CodePurpose;
  code: string;
  siteTitle: string;
  ttlMinutes: number;
}): CodeMessage {
  const action = PURPOSE_NAMES[input.purpose];
  const subject = `${input.siteTitle}${action}验证码：${input.code}`;
  const text =
    `你正在${input.siteTitle}${action}，验证码是 ${input.code}，${input.ttlMinutes} 分钟内有效，只能使用一次。` +
    '如果这不是你本人的操作，请忽略这条消息，不要把验证码告诉任何人。';
  return { channel: input.channel, to: input.to, purpose: input.purpose, code: input.code, subject, text };
}
