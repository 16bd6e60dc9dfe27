import type { SKRSContext2D } from '@napi-rs/canvas';
import { type Coverage, type Run, splitRuns } from './runs.ts';

// Sets a line of text on a canvas over an ordered list of faces (runs.ts decides which face sets
// which character). Skia places every face's em box alike for a given textBaseline, so the runs of
// one line share their baseline without correction.

/** A face to set text in: its family name (as the font registry gave it) and coverage. */
export interface SettingFace extends Coverage {
  family: string;
}

/** Sets text over an ordered list of faces and keeps the characters it had to leave out. */
export class Typesetter {
  readonly faces: readonly SettingFace[];
  /** Characters no face has, in the order first met. */
  readonly missing: string[] = [];

  constructor(faces: readonly SettingFace[]) {
    this.faces = faces;
  }

  /** The runs of a text (noting what no face has). */
  runs(text: string): Run[] {
    const { runs, missing } = splitRuns(text, this.faces);
    for (const character of missing) if (!this.missing.includes(character)) this.missing.push(character);
    return runs;
  }

  private font(run: Run, size: number): string {
    return `${size}px "${this.faces[run.face]?.family ?? ''}"`;
  }

  /** The advance of a text at a size. */
  measure(ctx: SKRSContext2D, text: string, size: number): number {
    let width = 0;
    for (const run of this.runs(text)) {
      ctx.font = this.font(run, size);
      width += ctx.measureText(run.text).width;
    }
    return width;
  }

  /** Draws a text at (x, y) as ctx.textAlign and ctx.textBaseline place it, each run in its face. */
  fill(ctx: SKRSContext2D, text: string, x: number, y: number, size: number): void {
    const runs = this.runs(text);
    const widths = runs.map((run) => {
      ctx.font = this.font(run, size);
      return ctx.measureText(run.text).width;
    });
    const total = widths.reduce((sum, width) => sum + width, 0);
    const align = ctx.textAlign;
    let pen = align === 'center' ? x - total / 2 : align === 'right' || align === 'end' ? x - total : x;
    ctx.textAlign = 'left';
    runs.forEach((run, i) => {
      ctx.font = this.font(run, size);
      ctx.fillText(run.text, pen, y);
      pen += widths[i] as number;
    });
    ctx.textAlign = align;
  }
}
