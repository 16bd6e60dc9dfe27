// Contribution (投稿) calls: a designer submits a font, follows its review and uploads the final files.
import { get, post } from './http.ts';
import type { Page, PageQuery } from './types.ts';

const BASE = '/web/api/contribute';

/** A submission record; the submission issue defines its fields. */
export interface Contribution {
  uid: string;
  [key: string]: unknown;
}

/** The user's most recent submission (to continue a draft). */
export const getLastContribution = () => get<Contribution | null>(`${BASE}/queryUserLastContributeFont`);

/** Submits a font for review. */
export const submitContribution = (body: Record<string, unknown>) => post<Contribution>(`${BASE}/submit`, body);

/** One page of the user's submissions. */
export const getMyContributions = (body: PageQuery & Record<string, unknown> = {}) =>
  post<Page<Contribution>>(`${BASE}/queryContributeFontsByAccountIdPage`, body);

/** The review process of a submission. */
export const getContributionProcess = (uid: string) =>
  get<Record<string, unknown>[]>(`${BASE}/queryContributesProcessByUid`, { uid });

/** The font information of a submission. */
export const getContributionFontInfo = (uid: string) =>
  get<Record<string, unknown>>(`${BASE}/queryContributeFontInfoByUid`, { uid });

/** The final (accepted) files of a submission. */
export const getContributionFinal = (uid: string) =>
  get<Record<string, unknown>>(`${BASE}/queryContributeUltimatelyByUid`, { uid });

/** The status of a submission. */
export const getContributionStatus = (uid: string) => get<Record<string, unknown>>(`${BASE}/queryStatusByid`, { uid });

/** Revises a submission after review comments. */
export const updateContribution = (body: Record<string, unknown>) => post<null>(`${BASE}/updateContributeById`, body);

/** Uploads the final font files of an accepted submission. */
export const uploadFinalContribution = (body: Record<string, unknown>) =>
  post<null>(`${BASE}/uploadContributeUltimatelyFont`, body);
