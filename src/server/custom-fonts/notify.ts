import { eq } from 'drizzle-orm';
import { CUSTOM_FONT_STAGE_NAMES, type CustomFontStage } from '../../contract/custom-fonts.ts';
import type { Db } from '../db/client.ts';
import { accounts, type customFontRequests } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { sendEmailInBackground } from '../messages/email-copies.ts';
import { notify } from '../messages/notifications.ts';

// The requester hears of every step of a request twice: a message in the user centre (定制进度)
// and an e-mail to the address the request gave. An account that also asked for e-mail copies of
// its messages at that same address receives the copy only, not the same mail twice.

type Row = typeof customFontRequests.$inferSelect;

/** What a step says: the title, the body, and the quote when there is one. */
export interface RequestNotice {
  title: string;
  body: string;
}

/** The words of each step for the requester. */
export function noticeOf(row: Row, stage: CustomFontStage, note: string, quote: string): RequestNotice {
  const name = `“${row.organisation}”的定制需求`;
  if (stage === 'new') {
    return {
      title: `${name}已收到`,
      body: '我们会在两个工作日内通过你留下的电话或邮箱联系你，了解用途、字数和时间，再给出报价。',
    };
  }
  const lines = [
    stage === 'quoted' ? `报价：${quote}` : '',
    note,
    note || stage === 'quoted' ? '' : `需求进入“${CUSTOM_FONT_STAGE_NAMES[stage]}”阶段。`,
  ].filter(Boolean);
  return { title: `${name}${CUSTOM_FONT_STAGE_NAMES[stage]}`, body: lines.join('\n') };
}

/** Tells the requester of `row` about a step: a site message and an e-mail to the request's address. */
export async function tellRequester(db: Db, row: Row, notice: RequestNotice): Promise<void> {
  const link = `/user/dingzhi/${row.uid}`;
  await notify([row.accountId], { type: 'service', title: notice.title, body: notice.body, link }, db);
  if (!row.email) return;
  const [account] = await db
    .select({ email: accounts.email, notifyByEmail: accounts.notifyByEmail })
    .from(accounts)
    .where(eq(accounts.id, row.accountId));
  if (account?.notifyByEmail && account.email?.toLowerCase() === row.email.toLowerCase()) return;
  const { SITE_TITLE, SITE_URL } = env();
  sendEmailInBackground({
    channel: 'email',
    to: row.email,
    purpose: 'notice',
    subject: `${SITE_TITLE}：${notice.title}`,
    text: [
      `${row.contactName}，你好：`,
      '',
      notice.body,
      '',
      `查看需求进度：${new URL(link, SITE_URL).toString()}`,
      '',
      `你收到这封邮件，是因为你在${SITE_TITLE}提交字体定制需求时留下了这个邮箱。`,
    ].join('\n'),
  });
}
