// The font-creation service (字体定制, route /dingzhi): what a client asks for, the stages a request
// moves through and what the API answers, shared by the database schema, the server and the pages.

import type { Page } from './envelope.ts';

/** The kinds of font the alliance makes to order. */
export const CUSTOM_FONT_KINDS = {
  brand: '品牌定制字体',
  handwriting: '手写字体',
  restoration: '古籍用字修复',
  other: '其他',
} as const;
export type CustomFontKind = keyof typeof CUSTOM_FONT_KINDS;

/** The character sets a client may choose; 'custom' comes with a count of its own. */
export const CUSTOM_FONT_CHARSETS = {
  gb2312: 'GB 2312（6763 字）',
  tongyong1: '通用规范汉字表一级（3500 字）',
  gb18030: 'GB 18030（约 2.8 万字）',
  big5: 'Big5 繁体（13053 字）',
  custom: '自定字数',
} as const;
export type CustomFontCharset = keyof typeof CUSTOM_FONT_CHARSETS;

/** Budget ranges; 待评估 when the client wants a quote first. */
export const CUSTOM_FONT_BUDGETS = {
  tbd: '待评估',
  'under-30k': '3 万元以下',
  '30k-80k': '3 万–8 万元',
  '80k-200k': '8 万–20 万元',
  '200k-500k': '20 万–50 万元',
  'over-500k': '50 万元以上',
} as const;
export type CustomFontBudget = keyof typeof CUSTOM_FONT_BUDGETS;

/**
 * The stages of a request: a new request is contacted, quoted, made and delivered; it may be
 * closed from any open stage (the client declined, or the alliance cannot take it on).
 */
export const CUSTOM_FONT_STAGES = ['new', 'contacted', 'quoted', 'in_progress', 'delivered', 'closed'] as const;
export type CustomFontStage = (typeof CUSTOM_FONT_STAGES)[number];

/** What each stage is called on the site. */
export const CUSTOM_FONT_STAGE_NAMES: Record<CustomFontStage, string> = {
  new: '待联系',
  contacted: '已联系',
  quoted: '已报价',
  in_progress: '制作中',
  delivered: '已交付',
  closed: '已关闭',
};

/** The editors' moves between stages (custom-fonts/lifecycle.ts says from where). */
export const CUSTOM_FONT_ACTIONS = ['contact', 'quote', 'start', 'deliver', 'close'] as const;
export type CustomFontAction = (typeof CUSTOM_FONT_ACTIONS)[number];

/** What a move is called on its button and in the timeline. */
export const CUSTOM_FONT_ACTION_NAMES: Record<CustomFontAction | 'create', string> = {
  create: '提交需求',
  contact: '已联系客户',
  quote: '报价',
  start: '开始制作',
  deliver: '交付',
  close: '关闭需求',
};

/** What an editor is told when a move is done (the requester hears of it by message and e-mail). */
export const CUSTOM_FONT_ACTION_DONE: Record<CustomFontAction, string> = {
  contact: '已标记为已联系，客户会收到通知',
  quote: '报价已发给客户',
  start: '已开始制作，客户会收到通知',
  deliver: '已标记为交付，客户会收到通知',
  close: '需求已关闭，客户会收到通知',
};

/** Most attachments one request carries, and the largest one, in MB. */
export const CUSTOM_FONT_MAX_FILES = 5;
export const CUSTOM_FONT_MAX_FILE_MB = 20;
/** New requests one account may send in 24 hours. */
export const CUSTOM_FONT_DAILY_LIMIT = 5;

/** What the request form sends (POST /web/api/dingzhi/request). */
export interface CustomFontRequestInput {
  organisation: string;
  contactName: string;
  phone: string;
  email: string;
  kind: CustomFontKind;
  charset: CustomFontCharset;
  /** The number of characters when the charset is 'custom'. */
  customCount?: number | null;
  weights: number;
  /** 'YYYY-MM-DD', a day after today, or '' when there is none. */
  deadline: string;
  budget: CustomFontBudget;
  description: string;
  /** Uploads made with tickets of GET /web/api/dingzhi/uploadTicket. */
  attachments: Array<{ key: string; name: string }>;
}

/** An attachment as stored: what its bytes turned out to be. */
export interface CustomFontFileView {
  id: number;
  name: string;
  size: number;
  /** 'image', 'pdf', 'zip' or 'font'. */
  type: string;
  /** Editors only: where to download it (the call checks the editor role). */
  url: string | null;
}

/** One move in a request's timeline. */
export interface CustomFontEvent {
  id: number;
  action: CustomFontAction | 'create';
  actionName: string;
  stage: CustomFontStage;
  note: string;
  /** The quoted amount or range, on a quote. */
  quote: string;
  actor: string;
  createdAt: string;
}

/** A request in a list. */
export interface CustomFontSummary {
  uid: string;
  organisation: string;
  kind: CustomFontKind;
  kindName: string;
  stage: CustomFontStage;
  stageName: string;
  /** The latest quote, or ''. */
  quote: string;
  createdAt: string;
  updatedAt: string;
}

/** A whole request, as its requester and the editors see it. */
export interface CustomFontDetail extends CustomFontSummary {
  contactName: string;
  phone: string;
  email: string;
  charset: CustomFontCharset;
  charsetName: string;
  customCount: number | null;
  weights: number;
  deadline: string;
  budget: CustomFontBudget;
  budgetName: string;
  description: string;
  files: CustomFontFileView[];
  timeline: CustomFontEvent[];
  /** The moves the caller may make now (editors only; empty for the requester). */
  moves: CustomFontAction[];
}

/** A page of requests; the editors' queue also counts every stage. */
export type CustomFontPage = Page<CustomFontSummary>;
export type CustomFontQueue = CustomFontPage & { counts: Record<CustomFontStage, number> };
