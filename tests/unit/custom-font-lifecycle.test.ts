import { describe, expect, test } from 'vitest';
import { CUSTOM_FONT_ACTIONS, CUSTOM_FONT_STAGES } from '../../src/contract/custom-fonts.ts';
import { movesFrom, nextStage, StageConflict } from '../../src/server/custom-fonts/lifecycle.ts';

// Every action from every stage: the allowed ones lead where docs/custom-fonts.md draws it, every
// other one is refused with the Chinese reason that names the stage.
const ALLOWED: Record<string, string> = {
  'contact new': 'contacted',
  'quote contacted': 'quoted',
  'quote quoted': 'quoted',
  'start quoted': 'in_progress',
  'deliver in_progress': 'delivered',
  'close new': 'closed',
  'close contacted': 'closed',
  'close quoted': 'closed',
  'close in_progress': 'closed',
};

const cases = CUSTOM_FONT_ACTIONS.flatMap((action) => CUSTOM_FONT_STAGES.map((stage) => [action, stage] as const));

describe('nextStage', () => {
  test.each(cases)('%s from %s', (action, stage) => {
    const to = ALLOWED[`${action} ${stage}`];
    if (to) {
      expect(nextStage(action, stage)).toBe(to);
    } else {
      expect(() => nextStage(action, stage)).toThrow(StageConflict);
      expect(() => nextStage(action, stage)).toThrow(/^需求当前为“.+”，不能/);
    }
  });

  test('delivered and closed requests have no moves left; the editor’s buttons follow the same table', () => {
    expect(movesFrom('delivered')).toEqual([]);
    expect(movesFrom('closed')).toEqual([]);
    expect(movesFrom('quoted')).toEqual(['quote', 'start', 'close']);
  });
});
