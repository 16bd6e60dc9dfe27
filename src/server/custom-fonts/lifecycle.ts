import {
  CUSTOM_FONT_ACTION_NAMES,
  CUSTOM_FONT_ACTIONS,
  CUSTOM_FONT_STAGE_NAMES,
  type CustomFontAction,
  type CustomFontStage,
} from '../../contract/custom-fonts.ts';

// The stages of a custom-font request and the only moves between them, all made by editors:
//
//   new ─contact→ contacted ─quote→ quoted ─start→ in_progress ─deliver→ delivered
//                                   ▲  │quote (a revised quote)
//                                   └──┘
//   new, contacted, quoted, in_progress ─close→ closed
//
// A quote names an amount or range; closing says why (the requester reads it).

interface Move {
  from: readonly CustomFontStage[];
  to: CustomFontStage;
  /** The note must say something (the requester reads it). */
  needsNote: boolean;
}

const OPEN: readonly CustomFontStage[] = ['new', 'contacted', 'quoted', 'in_progress'];

export const MOVES: Record<CustomFontAction, Move> = {
  contact: { from: ['new'], to: 'contacted', needsNote: false },
  quote: { from: ['contacted', 'quoted'], to: 'quoted', needsNote: false },
  start: { from: ['quoted'], to: 'in_progress', needsNote: false },
  deliver: { from: ['in_progress'], to: 'delivered', needsNote: false },
  close: { from: OPEN, to: 'closed', needsNote: true },
};

/** A move that the request's stage does not allow. */
export class StageConflict extends Error {
  override name = 'StageConflict';
}

/** The stage a move leads to; throws StageConflict with the Chinese reason when it is not allowed. */
export function nextStage(action: CustomFontAction, from: CustomFontStage): CustomFontStage {
  const move = MOVES[action];
  if (!move.from.includes(from)) {
    throw new StageConflict(`需求当前为“${CUSTOM_FONT_STAGE_NAMES[from]}”，不能${CUSTOM_FONT_ACTION_NAMES[action]}`);
  }
  return move.to;
}

/** The moves open from a stage, in the order the editor's buttons show them. */
export function movesFrom(stage: CustomFontStage): CustomFontAction[] {
  return CUSTOM_FONT_ACTIONS.filter((action) => MOVES[action].from.includes(stage));
}
