import {
  SUBMISSION_ACTION_NAMES,
  SUBMISSION_STATUS_NAMES,
  type SubmissionAction,
  type SubmissionStatus,
} from '../../contract/submissions.ts';

// The stages of a submission and the only moves between them (docs/submissions.md draws them):
//
//   draft ─submit→ submitted ─claim→ reviewing ─accept→ approved ─finalize→ finalized ─publish→ published
//                                      │  ▲                │   (signed agreement + final files
//                       request_changes│  │claim           │    that are the reviewed design)
//                                      ▼  │                │
//                             needs_revision ─resubmit→ resubmitted ◀─rereview─┘ (final files that
//                     reviewing ─reject→ rejected                                changed the design)
//
//   any stage after draft and before published ─withdraw→ withdrawn (the designer; files kept)
//
// A draft is not withdrawn but deleted with its files (service.ts deleteDraft). Designers make their
// own moves on their own submissions; reviewers (the editor role) make theirs.

/** Who makes a move. */
export type Actor = 'designer' | 'reviewer';

interface Move {
  from: readonly SubmissionStatus[];
  to: SubmissionStatus;
  by: Actor;
  /** The move must say why (the designer reads it). */
  needsNote: boolean;
}

export const MOVES: Record<SubmissionAction, Move> = {
  submit: { from: ['draft'], to: 'submitted', by: 'designer', needsNote: false },
  claim: { from: ['submitted', 'resubmitted'], to: 'reviewing', by: 'reviewer', needsNote: false },
  request_changes: { from: ['reviewing'], to: 'needs_revision', by: 'reviewer', needsNote: true },
  resubmit: { from: ['needs_revision'], to: 'resubmitted', by: 'designer', needsNote: false },
  accept: { from: ['reviewing'], to: 'approved', by: 'reviewer', needsNote: false },
  reject: { from: ['reviewing'], to: 'rejected', by: 'reviewer', needsNote: true },
  finalize: { from: ['approved'], to: 'finalized', by: 'designer', needsNote: false },
  // Final files that are not the reviewed design go back to review; the note says how they differ.
  rereview: { from: ['approved'], to: 'resubmitted', by: 'designer', needsNote: true },
  publish: { from: ['finalized'], to: 'published', by: 'reviewer', needsNote: false },
  // The agreement (§二) lets a designer withdraw a work at any time before it is published.
  withdraw: {
    from: ['submitted', 'reviewing', 'needs_revision', 'resubmitted', 'approved', 'finalized'],
    to: 'withdrawn',
    by: 'designer',
    needsNote: false,
  },
};

/** A move that is not allowed: from this stage, or by this person. */
export class IllegalMove extends Error {
  override name = 'IllegalMove';
  readonly status: 403 | 409;

  constructor(message: string, status: 403 | 409) {
    super(message);
    this.status = status;
  }
}

/** The stage a move leads to; throws IllegalMove with the Chinese reason when it is not allowed. */
export function nextStatus(action: SubmissionAction, from: SubmissionStatus, actor: Actor): SubmissionStatus {
  const move = MOVES[action];
  const name = SUBMISSION_ACTION_NAMES[action];
  if (move.by !== actor) {
    throw new IllegalMove(
      actor === 'designer' ? `“${name}”只能由审核员操作` : `“${name}”只能由投稿的设计师本人操作`,
      403,
    );
  }
  if (!move.from.includes(from)) {
    throw new IllegalMove(`投稿当前为“${SUBMISSION_STATUS_NAMES[from]}”，不能${name}`, 409);
  }
  return move.to;
}

/** The stages a designer may still change the information and files in. */
export const EDITABLE: readonly SubmissionStatus[] = ['draft', 'needs_revision'];

/** The stages a submission is deleted in rather than withdrawn: nobody but its designer has seen it. */
export const DELETABLE: readonly SubmissionStatus[] = ['draft'];

/** The stages nothing moves out of. */
export const FINAL: readonly SubmissionStatus[] = ['published', 'rejected', 'withdrawn'];
