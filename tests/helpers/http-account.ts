import fs from 'node:fs';
import path from 'node:path';
import type { Envelope } from '../../src/contract/envelope.ts';
import type { UploadTicket } from '../../src/contract/submissions.ts';
import { type CaptchaPost, solvePuzzle } from './captcha-solver.ts';
import { renamedByFontTools } from './font-writers.ts';
import { REGULAR, specimenPng } from './submissions.ts';

// An account made over HTTP as a browser makes it (puzzle, e-mailed code from the local outbox,
// registration), for walks and benchmarks that need signed-in pages without driving the dialog.

/** POSTs JSON to the site and answers the parsed body. */
async function postJson<T>(url: string, body: unknown, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

/** The newest code the outbox holds for `recipient` written after `after`, waiting up to 2 minutes for it. */
async function outboxCode(outbox: string, recipient: string, after: number): Promise<string> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    const names = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.json')) : [];
    const code = names
      .map((name) => JSON.parse(fs.readFileSync(path.join(outbox, name), 'utf8')) as Record<string, string>)
      .filter((entry) => entry['recipient'] === recipient && Date.parse(entry['createdAt'] ?? '') >= after)
      .sort((a, b) => (a['createdAt'] ?? '').localeCompare(b['createdAt'] ?? ''))
      .at(-1)?.['code'];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code for ${recipient} in ${outbox}`);
}

/**
 * A session for `email` on the site at `base`: the account is registered the first time (and given
 * one record of each kind, see `seedAccountRecords`), signed in with its password after that. Answers
 * the session token (the `token` cookie's value). `dataDir` is the server's data folder, whose outbox
 * keeps the code; `address` is the visitor's forwarded address.
 */
export async function sessionOverHttp(
  base: string,
  dataDir: string,
  email: string,
  password: string,
  address = '10.99.0.1',
  names: RecordNames = PLAIN_NAMES,
): Promise<string> {
  const headers = { 'X-Forwarded-For': address };
  const post: CaptchaPost = (pathname, body) => postJson(`${base}${pathname}`, body, headers);
  const login = await postJson<Envelope<{ token: string } | null>>(
    `${base}/web/api/login`,
    { account: email, password, captchaVerification: await solvePuzzle(post, { account: email }) },
    headers,
  );
  if (login.data?.token) return login.data.token;
  const sentAt = Date.now() - 1000;
  const sent = await postJson<Envelope<unknown>>(
    `${base}/web/api/account/sendCode`,
    { account: email, purpose: 'register', captchaVerification: await solvePuzzle(post) },
    headers,
  );
  if (sent.code !== '200') throw new Error(`sendCode: ${sent.message}`);
  const code = await outboxCode(path.join(dataDir, 'outbox'), email, sentAt);
  const session = await postJson<Envelope<{ token: string }>>(
    `${base}/web/api/account/register/email`,
    { email, code, password, nickname: names.nickname },
    headers,
  );
  if (!session.data?.token) throw new Error(`register: ${session.message}`);
  await seedAccountRecords(base, session.data.token, names);
  return session.data.token;
}

/** A GET or POST with the session's cookie, answering the envelope (throws on anything but success). */
async function callAs<T>(base: string, token: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${pathname}`, {
    headers: { cookie: `token=${token}`, origin: base, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Envelope<T>;
  if (answer.code !== '200') throw new Error(`${pathname}: ${answer.message}`);
  return answer.data;
}

/** Uploads `bytes` for a submission as the form does (ticket, then a signed PUT); answers the reference. */
async function uploadAs(base: string, token: string, purpose: 'font' | 'image', bytes: Uint8Array, name: string) {
  const type = purpose === 'font' ? 'font/ttf' : 'image/png';
  const query = new URLSearchParams({ purpose, name, size: String(bytes.byteLength), type });
  const ticket = await callAs<UploadTicket>(base, token, `/web/api/contribute/getSTSToken?${query}`);
  const put = await fetch(new URL(ticket.url, base), {
    method: 'PUT',
    headers: ticket.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  if (!put.ok) throw new Error(`upload of ${name}: ${put.status}`);
  return { key: ticket.key, name };
}

/** What an account's name and records are called: names as people write them, or the longest the forms take. */
export interface RecordNames {
  nickname: string;
  organisation: string;
  fontName: string;
  /** The submitted font's family name, which the English name must match. */
  nameEn: string;
  designer: string;
  fileName: string;
}

/** Names as a Chinese studio writes them. */
export const PLAIN_NAMES: RecordNames = {
  nickname: '',
  organisation: '墨香文化',
  // Not a name the submission journey uses: both lists show on the same editor page.
  fontName: '砚池黑',
  nameEn: 'Yanchi Hei',
  designer: '林墨',
  fileName: 'YanchiHei-Regular.ttf',
};

/**
 * The longest unbroken names each form takes (Latin with no space, where a line cannot break): a page must
 * wrap them, not scroll sideways.
 */
export const LONG_NAMES: RecordNames = {
  nickname: 'Typographer_of_Remarkably_Long_Nicknames',
  organisation: 'InternationalTypefoundryAndBrandIdentityStudioLimitedCompany',
  fontName: 'YanchiHeiDisplayCondensedExtraBoldNo1',
  nameEn: 'YanchiHeiDisplayCondensedExtraBoldTextNumberTwo',
  designer: 'MaximilianAlexanderTypedesignerLongnames',
  fileName: 'YanchiHeiDisplayCondensedExtraBoldTextNumberTwo-Regular-Version-1.000-final-final.ttf',
};

/**
 * Gives the signed-in account one record of each kind its pages show in detail: a custom-font
 * request (which also leaves a message) and a submission sent to review, so the user centre's and
 * the editors' detail pages have something to open.
 */
async function seedAccountRecords(base: string, token: string, names: RecordNames): Promise<void> {
  await callAs(base, token, '/web/api/dingzhi/request', {
    organisation: names.organisation,
    contactName: '林墨',
    email: 'studio@example.com',
    kind: 'brand',
    charset: 'gb2312',
    weights: 2,
    budget: 'tbd',
    description: '为品牌包装与海报定制一款标题黑体，需要粗细两个字重。',
  });
  const draft = await callAs<{ uid: string }>(base, token, '/web/api/submission/saveSubmission', {
    fields: {
      fontName: names.fontName,
      nameEn: names.nameEn,
      category: '黑体',
      script: '简体',
      designer: names.designer,
      description: '一款笔画均匀、字面适中的正文黑体，适合屏幕阅读与长文排版。',
      license: 'OFL-1.1',
      design: { origin: 'original', method: 'digital', usage: 'text' },
    },
    // The English name is the font's own family name, as submitting requires.
    font: await uploadAs(
      base,
      token,
      'font',
      renamedByFontTools(REGULAR, 'Mo Xiang Hei', names.nameEn),
      names.fileName,
    ),
    images: [await uploadAs(base, token, 'image', await specimenPng(), 'specimen.png')],
  });
  await callAs(base, token, '/web/api/contribute/submit', { uid: draft.uid, note: '' });
}
