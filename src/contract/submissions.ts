// Font submissions (投稿): the stages, what a designer fills in and what the API answers, shared by
// the database schema, the server and the pages.

import type { Page } from './envelope.ts';
import type { FONT_CATEGORIES, FONT_SCRIPTS } from './fonts.ts';
import {
  type DESIGN_METHODS,
  type DESIGN_ORIGINS,
  type DESIGN_USAGES,
  SUBMISSION_FIELD_RULES,
  type SUBMISSION_LICENSES,
} from './submission-fields.ts';

export * from './submission-fields.ts';

/**
 * The stages of a submission. A draft is submitted, claimed by a reviewer, sent back for changes
 * and resubmitted as often as needed, then accepted or rejected; an accepted submission needs the
 * designer's signed agreement and final files before an editor publishes it to the library. Until
 * then its designer may withdraw it (a draft is deleted instead).
 */
export const SUBMISSION_STATUSES = [
  'draft',
  'submitted',
  'reviewing',
  'needs_revision',
  'resubmitted',
  'approved',
  'finalized',
  'published',
  'rejected',
  'withdrawn',
] as const;
/** One stage of a submission. */
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** What each stage is called on the site. */
export const SUBMISSION_STATUS_NAMES: Record<SubmissionStatus, string> = {
  draft: '草稿',
  submitted: '待审核',
  reviewing: '审核中',
  needs_revision: '待修改',
  resubmitted: '已重新提交',
  approved: '审核通过',
  finalized: '终稿已上传',
  published: '已上架',
  rejected: '未通过',
  withdrawn: '已撤回',
};

/** The moves between stages; who may make each is checked by the server (lifecycle.ts). */
export const SUBMISSION_ACTIONS = [
  'submit',
  'claim',
  'request_changes',
  'resubmit',
  'accept',
  'reject',
  'finalize',
  'rereview',
  'publish',
  'withdraw',
] as const;
export type SubmissionAction = (typeof SUBMISSION_ACTIONS)[number];

/** What a move is called in the timeline. */
export const SUBMISSION_ACTION_NAMES: Record<SubmissionAction | 'create', string> = {
  create: '创建草稿',
  submit: '提交审核',
  claim: '审核员开始审核',
  request_changes: '退回修改',
  resubmit: '修改后重新提交',
  accept: '审核通过',
  reject: '审核未通过',
  finalize: '上传终稿',
  rereview: '终稿有改动，重新送审',
  publish: '上架到字体库',
  withdraw: '撤回投稿',
};

export type DesignOrigin = keyof typeof DESIGN_ORIGINS;
export type DesignMethod = keyof typeof DESIGN_METHODS;
export type DesignUsage = keyof typeof DESIGN_USAGES;
export type SubmissionLicense = keyof typeof SUBMISSION_LICENSES;

/** The design model (设计说明): how the font came to be. */
export interface DesignModel {
  origin: DesignOrigin;
  /** The font it was derived from, when it is derived. */
  baseFont: string;
  method: DesignMethod;
  usage: DesignUsage;
  /** Years of work, tools, inspiration: free text for the reviewers. */
  notes: string;
}

/** The information fields a designer fills in (saveSubmission, updateContributeById). */
export interface SubmissionFields {
  fontName: string;
  nameEn: string;
  category: (typeof FONT_CATEGORIES)[number];
  script: (typeof FONT_SCRIPTS)[number];
  designer: string;
  description: string;
  license: SubmissionLicense;
  design: DesignModel;
}

/** Largest font upload (one font or a zip of weights), in MB. */
export const SUBMISSION_MAX_FONT_MB = 80;
/** Largest specimen image, in MB. */
export const SUBMISSION_MAX_IMAGE_MB = 5;
/** Most specimen images a submission holds. */
export const SUBMISSION_MAX_IMAGES = 3;
/** Most weights one zip may hold. */
export const SUBMISSION_MAX_FACES = 12;

/** What an upload is for: a font (or zip), a specimen image, or the final files after acceptance. */
export type UploadPurpose = 'font' | 'image' | 'final';

/** Short-lived upload credentials (getSTSToken): a presigned PUT straight to storage. */
export interface UploadTicket {
  /** Where to PUT the bytes (absolute for remote storage, a path for the site's own storage). */
  url: string;
  method: 'PUT';
  /** Headers the PUT must send exactly as given (they are part of the signature). */
  headers: Record<string, string>;
  /** The storage key to hand to saveSubmission afterwards. */
  key: string;
  expiresAt: string;
}

/**
 * One face found in an uploaded font file, as checked on the server. Only faces that pass the rules
 * browsers' sanitizer (OTS) applies are stored: one that fails is refused at upload with its reason.
 */
export interface FaceReport {
  familyName: string;
  styleName: string;
  fullName: string;
  weight: number;
  italic: boolean;
  glyphCount: number;
  version: string;
  format: 'ttf' | 'otf';
  /** Characters covered of GB 2312 (6763), 通用规范一级 (3500), Big5 (13053) and Basic Latin (95). */
  coverage: { gb2312: number; tongyong: number; big5: number; latin: number };
  /** A specimen drawn in the face on the server. */
  specimenUrl: string;
}

/** A stored file of a submission. */
export interface SubmissionFileView {
  id: number;
  kind: 'font' | 'image' | 'final';
  name: string;
  size: number;
  /** Fonts: each face the file holds. */
  faces: FaceReport[];
  /** Images: where to see it and its size. */
  imageUrl: string | null;
  width: number | null;
  height: number | null;
  createdAt: string;
}

/** A reviewer's comment on one item: 'general', a field ('field:fontName'), a font or image file ('font:12', 'image:13'). */
export interface ReviewComment {
  id: number;
  round: number;
  item: string;
  body: string;
  author: string;
  createdAt: string;
}

/** One step of the timeline (queryContributesProcessByUid). */
export interface SubmissionEvent {
  id: number;
  action: SubmissionAction | 'create';
  status: SubmissionStatus;
  note: string;
  actor: string;
  /** Whether the designer or a reviewer made the move. */
  byReviewer: boolean;
  createdAt: string;
}

/** A submission in a list. */
export interface SubmissionSummary {
  uid: string;
  fontName: string;
  nameEn: string;
  status: SubmissionStatus;
  statusName: string;
  round: number;
  designer: string;
  updatedAt: string;
  submittedAt: string | null;
  /** The library font it became, once published. */
  publishedGno: string | null;
}

/** A whole submission as its designer and its reviewers see it. */
export interface SubmissionDetail extends SubmissionSummary {
  fields: SubmissionFields;
  fonts: SubmissionFileView[];
  images: SubmissionFileView[];
  finals: SubmissionFileView[];
  comments: ReviewComment[];
  reviewer: string | null;
  /** What must still be given before it can be submitted, in the designer's words. */
  missing: string[];
  /** What must be put right before it can be submitted (say, an English name the font does not bear). */
  problems: string[];
  /** What the person asking may do now. */
  can: {
    edit: boolean;
    submit: boolean;
    resubmit: boolean;
    finalize: boolean;
    review: boolean;
    /** Delete the draft with its files (drafts only). */
    delete: boolean;
    /** Withdraw it from review (any stage before publishing, after the draft). */
    withdraw: boolean;
  };
  /** For the designer of an accepted submission: whether the current agreement is signed. */
  signed: boolean;
}

/**
 * The envelope code of a final upload refused because its fonts are not the reviewed design (409):
 * the message says how they differ, and the designer may send the files back to review instead.
 */
export const FINAL_CHANGED_CODE = 'FINAL_CHANGED';

/** A page of submissions (queryContributeFontsByAccountIdPage, the review queue). */
export type SubmissionPage = Page<SubmissionSummary>;

/** queryStatusByid: the stage alone, for polling. */
export interface SubmissionStatusView {
  uid: string;
  status: SubmissionStatus;
  statusName: string;
}

/** The information fields by name, as forms and review comments call them. */
export const SUBMISSION_FIELD_NAMES: Record<keyof SubmissionFields, string> = {
  ...(Object.fromEntries(Object.entries(SUBMISSION_FIELD_RULES).map(([field, rule]) => [field, rule.label])) as Record<
    keyof typeof SUBMISSION_FIELD_RULES,
    string
  >),
  design: '设计说明',
};

/** What a review comment's item is called: 'general', 'field:<name>', 'font:<id>' or 'image:<id>'. */
export function commentItemName(item: string, files: readonly SubmissionFileView[]): string {
  if (item === 'general') return '总体意见';
  const [kind, key] = item.split(':');
  if (kind === 'field') return SUBMISSION_FIELD_NAMES[key as keyof SubmissionFields] ?? key ?? item;
  const file = files.find((candidate) => String(candidate.id) === key);
  const what = kind === 'image' ? '展示图' : '字体文件';
  return file ? `${what} ${file.name}` : `${what}（已替换）`;
}
