import type { CustomFontStage } from '../../contract/custom-fonts.ts';

/** The tag colour of a request's stage: delivered, waiting on the client (quoted), closed, or in hand. */
export function stageTone(stage: CustomFontStage): string {
  if (stage === 'delivered') return 'uc-tag--success';
  if (stage === 'quoted') return 'uc-tag--warning';
  return stage === 'closed' ? '' : 'uc-tag--accent';
}
