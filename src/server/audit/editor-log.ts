import { count, desc, eq } from 'drizzle-orm';
import { offsetOf, type Page, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, editorActions } from '../db/schema/index.ts';
import { log } from '../log.ts';

// The editing area's log (who changed what): every write an editor or reviewer makes is recorded
// after it succeeded, and /editor?tab=log lists them newest first.

/** One recorded action. */
export interface EditorAction {
  id: number;
  editor: string;
  action: string;
  target: string;
  summary: string;
  createdAt: string;
}

/** What each action is called in the log. */
export const EDITOR_ACTION_NAMES: Record<string, string> = {
  'article.save': '保存文章',
  'article.publish': '发布文章',
  'article.unpublish': '撤回文章',
  'album.save': '保存专辑',
  'album.publish': '发布专辑',
  'album.unpublish': '撤回专辑',
  'case.save': '保存案例',
  'case.publish': '发布案例',
  'case.unpublish': '撤回案例',
  'video.save': '保存视频',
  'video.publish': '发布视频',
  'video.unpublish': '撤回视频',
  'video.delete': '删除视频',
  'board.reply': '回复留言',
  announcement: '发布站内公告',
  rebuild: '重建页面缓存',
  'submission.claim': '开始审核投稿',
  'submission.request_changes': '退回投稿修改',
  'submission.accept': '通过投稿',
  'submission.reject': '投稿未通过',
  'submission.publish': '上架投稿',
  'custom-font.contact': '联系定制客户',
  'custom-font.quote': '定制需求报价',
  'custom-font.start': '定制开始制作',
  'custom-font.deliver': '定制交付',
  'custom-font.close': '关闭定制需求',
};

/**
 * Records an action an editor has made. The change itself has happened by then, so a failure to
 * record it is logged rather than turned into a failed answer.
 */
export async function recordEditorAction(
  input: { accountId: number; action: string; target?: string; summary?: string },
  database?: Db,
): Promise<void> {
  try {
    const db = database ?? (await configuredDb());
    await db.insert(editorActions).values({
      accountId: input.accountId,
      action: input.action,
      target: input.target ?? '',
      summary: (input.summary ?? '').slice(0, 200),
    });
  } catch (error) {
    log().error({ err: error, action: input.action, target: input.target }, 'editor action not recorded');
  }
}

/** A page of the log, newest first. */
export async function listEditorActions(page: PageRequest, database?: Db): Promise<Page<EditorAction>> {
  const db = database ?? (await configuredDb());
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: editorActions.id,
        editor: accounts.nickname,
        action: editorActions.action,
        target: editorActions.target,
        summary: editorActions.summary,
        createdAt: editorActions.createdAt,
      })
      .from(editorActions)
      .leftJoin(accounts, eq(accounts.id, editorActions.accountId))
      .orderBy(desc(editorActions.createdAt), desc(editorActions.id))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(editorActions),
  ]);
  const records = rows.map((row) => ({
    ...row,
    editor: row.editor ?? '已注销的账户',
    createdAt: row.createdAt.toISOString(),
  }));
  return toPage(records, total?.n ?? 0, page);
}
