import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { recordEditorAction } from '../../audit/editor-log.ts';
import { readToken } from '../../auth/middleware.ts';
import { ApiError, forbidden, notFound, ok, unauthorized } from '../../http/envelope.ts';
import { refuseForbiddenText } from '../../http/text-guard.ts';
import { formOrJsonFields, parseInChinese, validate } from '../../http/validate.ts';
import { announce } from '../../messages/notifications.ts';
import { replyToBoardMessage } from '../contact-board.ts';
import { applyEditorForm, EDIT_TYPES, type EditAction } from './apply.ts';
import { editorOfToken } from './queries.ts';
import { rebuildAllPages } from './save.ts';

const params = z.object({
  type: z.enum(EDIT_TYPES).meta({ label: '内容类型' }),
  id: z.union([z.literal('new'), z.coerce.number().int().min(1).max(2_147_483_647)]).meta({ label: '编号' }),
});
const ACTIONS: readonly EditAction[] = ['save', 'publish', 'unpublish'];
const messageParam = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '留言编号' }) });
const replyBody = z.object({
  body: z.string().trim().min(2, '回复至少 2 个字').max(2000, '回复最多 2000 个字'),
});
const announcementBody = z.object({
  title: z.string().trim().min(2, '公告标题至少 2 个字').max(60, '公告标题最多 60 个字'),
  body: z.string().trim().min(5, '公告内容至少 5 个字').max(5000, '公告内容最多 5000 个字'),
  // Only a path of this site: an announcement never sends people elsewhere.
  link: z
    .string()
    .trim()
    .max(300)
    .refine((value) => value === '' || /^\/(?!\/)[^\s]*$/.test(value), '链接只能是本站的路径，例如 /news/12')
    .default(''),
});

/** The editor behind a request's token: 401 without a login, 403 without the editor role. */
export async function requireEditor(token: string): Promise<{ id: number; nickname: string }> {
  const editor = await editorOfToken(token || undefined);
  if (!editor) throw token ? forbidden('只有编辑可以修改内容') : unauthorized();
  return editor;
}

/**
 * The answer of an editor form: a page without script is sent back to `page` with the outcome in
 * the query; a script gets the envelope (400 with the message on error).
 */
export function answerForm(
  c: Context,
  page: string,
  error: string | undefined,
  done = '',
  data: unknown = null,
): Response {
  const wantsPage = (c.req.header('accept') ?? '').includes('text/html');
  const [path, hash = ''] = page.split('#');
  const join = (path ?? '').includes('?') ? '&' : '?';
  if (error) {
    if (wantsPage) return c.redirect(`${path}${join}error=${encodeURIComponent(error)}${hash ? `#${hash}` : ''}`, 303);
    return c.json({ code: '400', message: error, data: null }, 400);
  }
  if (wantsPage) return c.redirect(`${path}${join}done=${encodeURIComponent(done)}${hash ? `#${hash}` : ''}`, 303);
  return c.json(ok(data, done));
}

/**
 * The editing area's writes, mounted at /web/api: POST editor/{article|album|case}/{id|new} takes the
 * editor form (multipart or urlencoded; `action` save, publish or unpublish) and answers
 * `{ id }`, or 400 with `data.errors` naming each field. Only accounts with the editor role may
 * call it. A form posted without script (Accept: text/html) is answered with a redirect back to
 * the editor page, saying what happened. POST editor/rebuild empties the page cache.
 */
export function editorRoutes(): Hono {
  const routes = new Hono();
  // Empties the whole page cache (after a bulk change); a form post returns to the editing area.
  routes.post('/editor/rebuild', async (c) => {
    const editor = await requireEditor(readToken(c));
    await rebuildAllPages();
    await recordEditorAction({ accountId: editor.id, action: 'rebuild' });
    if ((c.req.header('accept') ?? '').includes('text/html')) return c.redirect('/editor?done=rebuild', 303);
    return c.json(ok(null, '页面缓存已清空'));
  });
  // A reply to a contact-board message; the writer is told (see replyToBoardMessage).
  routes.post('/editor/messageBoard/:id/reply', validate('param', messageParam), async (c) => {
    const editor = await requireEditor(readToken(c));
    const parsed = parseInChinese(replyBody, await formOrJsonFields(c));
    const { id } = c.req.valid('param');
    if (!parsed.success) return answerForm(c, `/editor?tab=messages#message-${id}`, parsed.message);
    await replyToBoardMessage(editor.id, id, parsed.data.body);
    await recordEditorAction({
      accountId: editor.id,
      action: 'board.reply',
      target: `board:${id}`,
      summary: parsed.data.body,
    });
    return answerForm(c, `/editor?tab=messages#message-${id}`, undefined, '回复已发送');
  });
  // An announcement (站内公告) to every account.
  routes.post('/editor/announcement', async (c) => {
    const editor = await requireEditor(readToken(c));
    const parsed = parseInChinese(announcementBody, await formOrJsonFields(c));
    if (!parsed.success) return answerForm(c, '/editor?tab=announce', parsed.message);
    const { recipients } = await announce({
      title: parsed.data.title,
      body: parsed.data.body,
      link: parsed.data.link || null,
    });
    await recordEditorAction({ accountId: editor.id, action: 'announcement', summary: parsed.data.title });
    return answerForm(c, `/editor?tab=announce&sent=${recipients}`, undefined, `公告已发给 ${recipients} 位用户`, {
      recipients,
    });
  });
  routes.post('/editor/:type/:id', validate('param', params), async (c) => {
    const editor = await requireEditor(readToken(c));
    const { type, id } = c.req.valid('param');
    const form = await c.req.formData().catch(() => {
      throw new ApiError(400, '400', '请用表单提交编辑内容');
    });
    refuseForbiddenText(Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)])));
    const action = String(form.get('action') ?? 'save') as EditAction;
    if (!ACTIONS.includes(action)) throw new ApiError(400, '400', '操作（action）只能是 save、publish 或 unpublish');
    const result = await applyEditorForm(type, id === 'new' ? undefined : id, form).catch((error: unknown) => {
      // A missing item is a 404 of the editor page, not of the API caller's making.
      if (error instanceof ApiError && error.status === 404) throw notFound('要编辑的内容不存在');
      throw error;
    });
    const wantsPage = (c.req.header('accept') ?? '').includes('text/html');
    const page = `/editor/${type}/${result.ok ? result.id : id}`;
    if (result.ok) {
      const title = String(form.get('title') ?? form.get('name') ?? '');
      await recordEditorAction({
        accountId: editor.id,
        action: `${type}.${action}`,
        target: `${type}:${result.id}`,
        summary: title,
      });
    }
    if (!result.ok) {
      const message = Object.values(result.errors)[0] ?? '请检查填写的内容';
      if (wantsPage) return c.redirect(`${page}?error=${encodeURIComponent(message)}`, 303);
      return c.json({ code: '400', message, data: { errors: result.errors } }, 400);
    }
    if (wantsPage) return c.redirect(`${page}?done=${action}`, 303);
    return c.json(
      ok({ id: result.id }, action === 'publish' ? '已发布' : action === 'unpublish' ? '已撤回为草稿' : '已保存'),
    );
  });
  return routes;
}
