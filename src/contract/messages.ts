// Shapes of the user centre's answers (notifications, the contact board seen by its writer, the
// contributor agreement and the overview), shared by the server (src/server/messages,
// src/server/signing, src/server/user-centre) and the browser client (src/api/user-data.ts).

import type { UserInfo } from './accounts.ts';
import type { PixelProjectSummary } from './tools.ts';

/** The kinds of message a user receives. */
export const NOTIFICATION_TYPES = ['system', 'review', 'service', 'reply', 'announcement'] as const;
/** One kind of message. */
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What each kind is called on the site. */
export const NOTIFICATION_TYPE_NAMES: Record<NotificationType, string> = {
  system: '系统通知',
  review: '审核进度',
  service: '定制进度',
  reply: '互动回复',
  announcement: '站内公告',
};

/** One message of the message centre. */
export interface NotificationItem {
  id: number;
  type: NotificationType;
  typeName: string;
  title: string;
  body: string;
  /** A path on this site the message leads to, or null. */
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

/** The header badge's data (GET /api/v1/web/notify): unread counts and the newest unread messages. */
export interface NotificationSummary {
  unread: number;
  byType: Record<NotificationType, number>;
  latest: NotificationItem[];
  /** Whether a copy of each message goes to the user's e-mail address. */
  emailCopies: boolean;
  /** Whether the account has an e-mail address to send copies to. */
  hasEmail: boolean;
}

/** A reply of the alliance to a contact-board message. */
export interface ContactReply {
  id: number;
  body: string;
  /** The editor's nickname, or 造字联盟 when the editor has none. */
  author: string;
  createdAt: string;
}

/** A contact-board message with its replies, as its writer sees it. */
export interface ContactThread {
  id: number;
  name: string;
  contact: string;
  content: string;
  createdAt: string;
  replies: ContactReply[];
}

/** The fields a designer fills in to sign the contributor agreement. */
export interface SigningFields {
  /** 真实姓名 or the registered name of a studio. */
  legalName: string;
  /** The name credited on published fonts (署名). */
  creditName: string;
  /** A mobile number or an e-mail address. */
  contact: string;
  /** A postal address for the paper copy, optional. */
  address: string;
}

/** The state of the contributor agreement for one account (GET /web/api/signing). */
export interface SigningState {
  version: string;
  title: string;
  /** The agreement's sections, in order. */
  sections: Array<{ heading: string; paragraphs: string[] }>;
  signed: null | {
    id: number;
    version: string;
    /** True when the account signed an older version and should sign the current one. */
    outdated: boolean;
    legalName: string;
    creditName: string;
    signedAt: string;
    pdfUrl: string;
  };
}

/** The user centre's home (GET /web/api/user/overview): one answer for the whole page. */
export interface UserOverview {
  account: UserInfo;
  favorites: {
    fonts: number;
    albums: number;
    articles: number;
    latest: Array<{ kind: 'font' | 'album' | 'heji' | 'article'; title: string; href: string; at: string }>;
  };
  downloads: { total: number; latest: Array<{ familyName: string; href: string; at: string }> };
  submissions: {
    total: number;
    /** The latest changed, each with the uid its page is named by. */
    latest: Array<{ uid: string; fontName: string; status: string; statusName: string; at: string }>;
  };
  messages: { unread: number; latest: NotificationItem[] };
  signing: { signed: boolean; outdated: boolean; signedAt: string | null };
  /** The latest saved pixel-font projects. */
  pixelProjects: PixelProjectSummary[];
}
