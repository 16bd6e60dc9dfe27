// What each information field of a submission must hold, said once: the submit form reads its 必填
// marks, hints and checks from here, and the server checks saves and submits with the same rules
// (src/server/submissions/routes.ts builds its schema from them, service.ts lists what is missing).
// Re-exported by ./submissions.ts.

import { FONT_CATEGORIES, FONT_SCRIPTS } from './fonts.ts';

/** Licences a designer may intend; the labels match the library's licence filter. */
export const SUBMISSION_LICENSES = {
  'OFL-1.1': 'SIL 开源字体许可 1.1（免费商用）',
  'Apache-2.0': 'Apache 许可 2.0（免费商用）',
  'free-commercial': '免费商用（作者授权）',
  personal: '个人非商用免费',
} as const;

/** How the font was made: the design model of the upload form. */
export const DESIGN_ORIGINS = { original: '原创设计', derived: '基于开源字体修改' } as const;
export const DESIGN_METHODS = {
  digital: '电脑绘制',
  handwriting: '手写扫描',
  calligraphy: '书法作品整理',
  pixel: '像素点阵',
} as const;
export const DESIGN_USAGES = { text: '正文', display: '标题与展示', both: '正文与标题' } as const;

/**
 * When a field must be filled in: 'draft' (a draft cannot be saved without it), 'submit' (a draft
 * may leave it blank, but it cannot go to review until it is given) or 'optional'. The form marks
 * the first two 必填.
 */
export type FieldNeed = 'draft' | 'submit' | 'optional';

interface TextRule {
  kind: 'text';
  label: string;
  need: FieldNeed;
  /** Fewest characters a submitted value has (a draft may hold fewer). */
  min?: number;
  max: number;
  /** What a value must look like, and what to say when it does not (after the label). */
  pattern?: RegExp;
  patternMessage?: string;
}

interface ChoiceRule {
  kind: 'choice';
  label: string;
  need: FieldNeed;
  choices: readonly string[];
}

export type FieldRule = TextRule | ChoiceRule;

/** The Latin family name's shape: it becomes the font's address in the library. */
export const NAME_EN_PATTERN = /^[A-Za-z][A-Za-z0-9 -]{1,47}$/;

/** The plain information fields (the design model is its own group, below). */
export const SUBMISSION_FIELD_RULES = {
  fontName: { kind: 'text', label: '中文名称', need: 'draft', max: 40 },
  nameEn: {
    kind: 'text',
    label: '英文名称',
    need: 'submit',
    max: 48,
    pattern: NAME_EN_PATTERN,
    patternMessage: '以字母开头，只用字母、数字、空格和连字符，2 到 48 个字符',
  },
  category: { kind: 'choice', label: '风格分类', need: 'submit', choices: FONT_CATEGORIES },
  script: { kind: 'choice', label: '适用文字', need: 'submit', choices: FONT_SCRIPTS },
  designer: { kind: 'text', label: '设计师署名', need: 'submit', max: 40 },
  description: { kind: 'text', label: '字体介绍', need: 'submit', min: 20, max: 2000 },
  license: { kind: 'choice', label: '授权方式', need: 'submit', choices: Object.keys(SUBMISSION_LICENSES) },
} as const satisfies Record<string, FieldRule>;

export type PlainField = keyof typeof SUBMISSION_FIELD_RULES;

/**
 * The design model's parts (设计说明), each with its label. The model as a whole is needed before
 * review; the original font is needed when the design is derived from one; the notes are optional.
 */
export const DESIGN_RULES = {
  label: '设计说明',
  need: 'submit',
  origin: { label: '设计来源', choices: Object.keys(DESIGN_ORIGINS) },
  baseFont: { label: '原字体名称与许可证', need: 'submit', max: 80 },
  method: { label: '制作方式', choices: Object.keys(DESIGN_METHODS) },
  usage: { label: '主要用途', choices: Object.keys(DESIGN_USAGES) },
  notes: { label: '设计说明', need: 'optional', max: 2000 },
} as const satisfies {
  need: FieldNeed;
  baseFont: { label: string; need: FieldNeed; max: number };
  notes: { label: string; need: FieldNeed; max: number };
  [part: string]: unknown;
};

/** Whether a form marks a field 必填: every field a submission needs before it goes to review. */
export function isRequired(rule: { need: FieldNeed }): boolean {
  return rule.need !== 'optional';
}

/**
 * What is wrong with a value given for a field, without the label (the caller puts the label in
 * front): blank values are fine for a draft, except for the fields a draft needs.
 */
export function fieldProblem(field: PlainField, value: string): string | null {
  const rule: FieldRule = SUBMISSION_FIELD_RULES[field];
  const text = value.trim();
  if (text === '') return rule.need === 'draft' ? '不能为空' : null;
  if (rule.kind === 'choice') return rule.choices.includes(text) ? null : '请从列表中选择';
  if ([...text].length > rule.max) return `最多 ${rule.max} 个字`;
  if (rule.pattern && !rule.pattern.test(text)) return rule.patternMessage ?? '格式不正确';
  return null;
}

/** What is wrong with a design model, as "label：problem", or null. */
export function designProblem(design: {
  origin: string;
  baseFont: string;
  method: string;
  usage: string;
  notes: string;
}): string | null {
  for (const part of ['origin', 'method', 'usage'] as const) {
    const rule = DESIGN_RULES[part];
    if (!(rule.choices as readonly string[]).includes(design[part])) return `${rule.label}：请从列表中选择`;
  }
  if (design.origin === 'derived' && design.baseFont.trim() === '') {
    return `${DESIGN_RULES.baseFont.label}：基于开源字体修改的作品，请填写原字体名称`;
  }
  if ([...design.baseFont.trim()].length > DESIGN_RULES.baseFont.max) {
    return `${DESIGN_RULES.baseFont.label}：最多 ${DESIGN_RULES.baseFont.max} 个字`;
  }
  if ([...design.notes.trim()].length > DESIGN_RULES.notes.max) {
    return `${DESIGN_RULES.notes.label}：最多 ${DESIGN_RULES.notes.max} 个字`;
  }
  return null;
}

/** The first problem of the fields a save gives, as "label：problem", or null when all are fine. */
export function fieldsProblem(fields: { [K in PlainField]?: string | undefined }): string | null {
  for (const field of Object.keys(SUBMISSION_FIELD_RULES) as PlainField[]) {
    const value = fields[field];
    if (value === undefined) continue;
    const problem = fieldProblem(field, value);
    if (problem) return `${SUBMISSION_FIELD_RULES[field].label}：${problem}`;
  }
  return null;
}

/**
 * The fields a submission still needs before review, in the form's words ("字体介绍（至少 20 个字）").
 * `design` is whether the design model has been given.
 */
export function missingFields(fields: { [K in PlainField]: string }, design: boolean): string[] {
  const missing: string[] = [];
  for (const field of Object.keys(SUBMISSION_FIELD_RULES) as PlainField[]) {
    const rule: FieldRule = SUBMISSION_FIELD_RULES[field];
    const value = fields[field].trim();
    if (value === '')
      missing.push(rule.kind === 'text' && rule.min ? `${rule.label}（至少 ${rule.min} 个字）` : rule.label);
    else if (rule.kind === 'text' && rule.min && [...value].length < rule.min) {
      missing.push(`${rule.label}（至少 ${rule.min} 个字）`);
    }
  }
  if (!design) missing.push(DESIGN_RULES.label);
  return missing;
}

/**
 * A Latin family name reduced to what identifies it: letters and digits, lower case, so that
 * "Mo Xiang Hei", "mo-xiang-hei" and "MoXiangHei" are the same name.
 */
export function familyKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}
