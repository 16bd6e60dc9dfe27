import { describe, expect, test } from 'vitest';
import { SUBMISSION_ACTIONS, SUBMISSION_STATUSES } from '../../src/contract/submissions.ts';
import {
  type Actor,
  DELETABLE,
  FINAL,
  IllegalMove,
  MOVES,
  nextStatus,
} from '../../src/server/submissions/lifecycle.ts';

const ACTORS: Actor[] = ['designer', 'reviewer'];

describe('submission lifecycle', () => {
  test('the documented path from draft to published', () => {
    const path: Array<[Parameters<typeof nextStatus>[0], Actor, string]> = [
      ['submit', 'designer', 'submitted'],
      ['claim', 'reviewer', 'reviewing'],
      ['request_changes', 'reviewer', 'needs_revision'],
      ['resubmit', 'designer', 'resubmitted'],
      ['claim', 'reviewer', 'reviewing'],
      ['accept', 'reviewer', 'approved'],
      ['finalize', 'designer', 'finalized'],
      ['publish', 'reviewer', 'published'],
    ];
    let status: (typeof SUBMISSION_STATUSES)[number] = 'draft';
    for (const [action, actor, to] of path) {
      status = nextStatus(action, status, actor);
      expect(status).toBe(to);
    }
    expect(nextStatus('reject', 'reviewing', 'reviewer')).toBe('rejected');
  });

  // Every action from every stage by every actor: exactly the table's moves pass; the rest are
  // refused with a Chinese reason, 403 for the wrong person and 409 for the wrong stage.
  const cases = SUBMISSION_ACTIONS.flatMap((action) =>
    SUBMISSION_STATUSES.flatMap((from) => ACTORS.map((actor) => [action, from, actor] as const)),
  );
  test.each(cases)('%s from %s by %s', (action, from, actor) => {
    const move = MOVES[action];
    if (move.by === actor && move.from.includes(from)) {
      expect(nextStatus(action, from, actor)).toBe(move.to);
      return;
    }
    let error: unknown;
    try {
      nextStatus(action, from, actor);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(IllegalMove);
    expect((error as IllegalMove).status).toBe(move.by === actor ? 409 : 403);
    expect((error as IllegalMove).message).toMatch(/[\u4e00-\u9fff]/);
  });

  test('published, rejected and withdrawn are final', () => {
    for (const action of SUBMISSION_ACTIONS) {
      for (const actor of ACTORS) {
        for (const end of FINAL) expect(() => nextStatus(action, end, actor)).toThrow(IllegalMove);
      }
    }
    expect(FINAL).toEqual(['published', 'rejected', 'withdrawn']);
  });

  test('its designer withdraws it from every stage after the draft and before publishing', () => {
    const withdrawable = SUBMISSION_STATUSES.filter((status) => !['draft', ...FINAL].includes(status));
    for (const from of withdrawable) expect(nextStatus('withdraw', from, 'designer')).toBe('withdrawn');
    expect(() => nextStatus('withdraw', 'published', 'designer')).toThrow('投稿当前为“已上架”，不能撤回投稿');
    // A draft nobody else has seen is deleted instead.
    expect(DELETABLE).toEqual(['draft']);
    expect(() => nextStatus('withdraw', 'draft', 'designer')).toThrow(IllegalMove);
    expect(() => nextStatus('withdraw', 'reviewing', 'reviewer')).toThrow('“撤回投稿”只能由投稿的设计师本人操作');
  });

  test('final files that changed the design go back to review, with the reason', () => {
    expect(nextStatus('rereview', 'approved', 'designer')).toBe('resubmitted');
    expect(nextStatus('claim', 'resubmitted', 'reviewer')).toBe('reviewing');
    expect(MOVES.rereview.needsNote).toBe(true);
    expect(() => nextStatus('rereview', 'finalized', 'designer')).toThrow(IllegalMove);
  });
});
