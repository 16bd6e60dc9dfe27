import { FINAL_CHANGED_CODE, SUBMISSION_STATUS_NAMES, type SubmissionDetail } from '../../contract/submissions.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import type { StoredFace } from '../db/schema/index.ts';
import { OUTLINE_PX } from '../engine/design-compare.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { signingStatus } from '../signing/service.ts';
import { toolsPool } from '../tools/runtime.ts';
import { type Caller, findOwn, type Row } from './access.ts';
import type { CheckedFile } from './files.ts';
import { move } from './moves.ts';
import { checkAll, discard, type UploadRef, writeFiles } from './service.ts';
import { activeFile, detailOf } from './views.ts';

// The final files of an accepted submission (uploadContributeUltimatelyFont). What is published
// must be what was reviewed: the same family names, the same weights, in each face at least the
// characters the reviewed face had, and the same outlines in a sample of characters (the rules
// and their tolerance are engine/design-compare.ts). Final files that differ are refused with the
// differences, and the designer may send them back to review instead (the move 'rereview').

const weightName = (face: Pick<StoredFace, 'styleName' | 'weight' | 'italic'>) =>
  `${face.styleName}（${face.weight}${face.italic ? '，斜体' : ''}）`;
const faceId = (face: Pick<StoredFace, 'weight' | 'italic'>) => `${face.weight}${face.italic ? 'i' : ''}`;
const characters = (codePoints: readonly number[]) => codePoints.map((cp) => String.fromCodePoint(cp)).join('、');

/** The faces of the submission's font file as the reviewers last saw it. */
async function reviewedFaces(db: Db, row: Row): Promise<StoredFace[]> {
  const font = await activeFile(db, row, 'font');
  if (font?.report?.kind !== 'font') throw new ApiError(409, '409', '这份投稿没有审核过的字体文件，请联系审核员');
  return font.report.faces;
}

/** How final faces differ from the reviewed ones, each in a sentence the designer reads; empty when they are the same design. */
export async function designDifferences(reviewed: StoredFace[], final: StoredFace[]): Promise<string[]> {
  const differences: string[] = [];
  const [was, is] = [reviewed[0], final[0]];
  if (was && is && was.familyName !== is.familyName) {
    differences.push(`家族名是“${is.familyName}”，审核通过的是“${was.familyName}”`);
  }
  if (was?.familyNameZh && is && is.familyNameZh !== was.familyNameZh) {
    differences.push(`中文家族名是“${is.familyNameZh ?? '（没有）'}”，审核通过的是“${was.familyNameZh}”`);
  }
  const finals = new Map(final.map((face) => [faceId(face), face]));
  const lacking = reviewed.filter((face) => !finals.has(faceId(face)));
  if (lacking.length > 0) differences.push(`缺少字重 ${lacking.map(weightName).join('、')}`);
  const reviewedIds = new Set(reviewed.map(faceId));
  const added = final.filter((face) => !reviewedIds.has(faceId(face)));
  if (added.length > 0) differences.push(`多了审核时没有的字重 ${added.map(weightName).join('、')}`);

  const pairs = reviewed.flatMap((face) => {
    const match = finals.get(faceId(face));
    // The very same bytes are the same design; nothing to draw.
    return match && match.sha256 !== face.sha256 ? [[face, match] as const] : [];
  });
  const compared = await Promise.all(
    pairs.map(([before, after]) =>
      toolsPool().run(
        { kind: 'compareDesign', reviewedKey: before.faceKey, finalKey: after.faceKey },
        { lane: 'quick', timeoutMs: 180_000 },
      ),
    ),
  );
  for (const [i, comparison] of compared.entries()) {
    const name = weightName(pairs[i]?.[0] as StoredFace);
    if (comparison.missingCount > 0) {
      const more = comparison.missingCount > comparison.missing.length ? ' 等' : '';
      differences.push(
        `${name}少了 ${comparison.missingCount} 个审核时有的字：${characters(comparison.missing)}${more}`,
      );
    }
    if (comparison.redrawnCount > 0) {
      const listed = comparison.redrawn
        .map((glyph) => `${String.fromCodePoint(glyph.codePoint)}（${Math.round(glyph.difference * 100)}%）`)
        .join('、');
      differences.push(
        `${name}抽查的 ${comparison.sampled} 个字中有 ${comparison.redrawnCount} 个字形与审核时不同：${listed}` +
          `（按每字 ${OUTLINE_PX} 像素绘制比较，偏差在 1 像素以内的笔画视为相同，括号里是不同笔画的比例）`,
      );
    }
  }
  return differences;
}

const facesOf = (file: CheckedFile): StoredFace[] => (file.report.kind === 'font' ? file.report.faces : []);

/**
 * Takes the final files of an accepted submission once the designer has signed the current
 * agreement. Files that are the reviewed design finalise it; files that differ are refused with a
 * 409 (code FINAL_CHANGED_CODE) saying how, unless `rereview` asks to send them back to review as
 * the submission's new font.
 */
export async function uploadFinal(
  caller: Caller,
  uid: string,
  ref: UploadRef,
  options: { rereview?: boolean | undefined } = {},
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findOwn(caller, uid, db);
  if (row.status !== 'approved') {
    throw new ApiError(409, '409', `投稿当前为“${SUBMISSION_STATUS_NAMES[row.status]}”，审核通过后才能上传终稿`);
  }
  const signing = await signingStatus(caller.accountId, db);
  if (!signing.signed || signing.outdated) {
    throw new ApiError(403, '403', '请先签署最新版本的设计师协议，再上传终稿');
  }
  const reviewed = await reviewedFaces(db, row);
  const [checked] = await checkAll(caller.accountId, row, [{ kind: 'final', ref }]);
  if (!checked) throw badRequest('请上传终稿文件');
  try {
    const differences = await designDifferences(reviewed, facesOf(checked));
    // The files are written in the move's transaction: a move refused at the last moment leaves none.
    if (differences.length === 0) {
      const finalize = async (tx: Db) => {
        await writeFiles(tx, row, [checked]);
        return {};
      };
      const moved = await move(caller, row, 'finalize', '', finalize, db);
      return detailOf(caller, moved, db);
    }
    const said = differences.join('；');
    if (!options.rereview) {
      throw new ApiError(
        409,
        FINAL_CHANGED_CODE,
        `终稿与审核通过的版本不一致：${said}。终稿须是审核通过的那一版设计；如果是有意修改了设计，可以把这份文件作为新版本重新送审。`,
      );
    }
    // The changed files become the font the reviewers look at next, in a new round.
    const moved = await move(
      caller,
      row,
      'rereview',
      `终稿与审核通过的版本不一致，重新送审：${said}。`,
      async (tx) => {
        await writeFiles(tx, row, [{ ...checked, kind: 'font' }]);
        return { round: row.round + 1, submittedAt: new Date() };
      },
      db,
    );
    return detailOf(caller, moved, db);
  } catch (error) {
    await discard([checked]);
    throw error;
  }
}
