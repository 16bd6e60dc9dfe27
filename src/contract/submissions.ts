// The stages of a font submission (投稿), shared by the database schema, the server and the pages.

/** The stages of a submission, from draft to published. */
export const SUBMISSION_STATUSES = [
  'draft',
  'submitted',
  'reviewing',
  'needs_revision',
  'approved',
  'rejected',
  'published',
] as const;
/** One stage of a submission. */
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** What each stage is called on the site. */
export const SUBMISSION_STATUS_NAMES: Record<SubmissionStatus, string> = {
  draft: '草稿',
  submitted: '已提交',
  reviewing: '审核中',
  needs_revision: '待修改',
  approved: '审核通过',
  rejected: '未通过',
  published: '已上架',
};
