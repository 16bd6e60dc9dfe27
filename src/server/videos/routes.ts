import fsp from 'node:fs/promises';
import { Hono } from 'hono';
import { z } from 'zod';
import { recordEditorAction } from '../audit/editor-log.ts';
import { readToken } from '../auth/middleware.ts';
import { answerForm, requireEditor } from '../content/editor/routes.ts';
import { env } from '../env.ts';
import { badRequest, notFound, ok } from '../http/envelope.ts';
import { refuseForbiddenText } from '../http/text-guard.ts';
import { formOrJsonFields, pageQuery, parseInChinese, validate } from '../http/validate.ts';
import { VideoFormatError } from './formats.ts';
import { receiveVideoForm } from './upload.ts';
import { createVideo, deleteVideo, getVideo, listVideos, updateVideo } from './videos.ts';

const idParam = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '视频编号' }) });
const videoText = z.object({
  title: z.string().trim().min(2, '标题至少 2 个字').max(60, '标题最多 60 个字'),
  summary: z.string().trim().max(300, '简介最多 300 个字').default(''),
  action: z.enum(['save', 'publish', 'unpublish'], '操作只能是保存、发布或撤回').default('save'),
});

const ACTION_NAMES = { save: '已保存', publish: '已发布', unpublish: '已撤回为草稿' } as const;

/**
 * Videos (视频), mounted at /web/api: the published list and one video for everybody; for editors,
 * the upload (one multipart form: title, summary, the video, its poster and Chinese captions),
 * edits, publishing and deletion. Every write is logged and purges the pages that show videos.
 */
export function videoRoutes(): Hono {
  const routes = new Hono();
  routes.get('/video/list', validate('query', pageQuery), async (c) =>
    c.json(ok(await listVideos(c.req.valid('query')))),
  );
  routes.get('/video/:id', validate('param', idParam), async (c) => {
    const video = await getVideo(c.req.valid('param').id);
    if (!video) throw notFound('视频不存在或已下线');
    return c.json(ok(video));
  });

  routes.post('/editor/video', async (c) => {
    const editor = await requireEditor(readToken(c));
    const form = await receiveVideoForm(c.req.raw, env().VIDEO_MAX_UPLOAD_MB * 1024 * 1024);
    try {
      refuseForbiddenText(form.fields);
      const text = parseInChinese(videoText, form.fields);
      if (!text.success) return answerForm(c, '/editor/video/new', text.message);
      const missing = !form.videoPath
        ? '请选择视频文件'
        : !form.poster
          ? '请选择封面图'
          : !form.captions
            ? '请选择字幕文件（WebVTT）'
            : '';
      if (missing || !form.videoPath || !form.poster || !form.captions)
        return answerForm(c, '/editor/video/new', missing);
      const video = await createVideo({
        title: text.data.title,
        summary: text.data.summary,
        videoPath: form.videoPath,
        poster: form.poster,
        captions: form.captions,
        createdBy: editor.id,
        publish: text.data.action === 'publish',
      }).catch((error: unknown) => {
        if (error instanceof VideoFormatError) throw badRequest(error.message);
        throw error;
      });
      await recordEditorAction({
        accountId: editor.id,
        action: text.data.action === 'publish' ? 'video.publish' : 'video.save',
        target: `video:${video.id}`,
        summary: video.title,
      });
      return answerForm(c, `/editor/video/${video.id}`, undefined, ACTION_NAMES[text.data.action], { id: video.id });
    } finally {
      await fsp.rm(form.dir, { recursive: true, force: true });
    }
  });

  routes.post('/editor/video/:id', validate('param', idParam), async (c) => {
    const editor = await requireEditor(readToken(c));
    const { id } = c.req.valid('param');
    const fields = await formOrJsonFields(c);
    refuseForbiddenText(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])));
    const text = parseInChinese(videoText, fields);
    if (!text.success) return answerForm(c, `/editor/video/${id}`, text.message);
    const video = await updateVideo(id, text.data);
    if (!video) throw notFound('要编辑的视频不存在');
    await recordEditorAction({
      accountId: editor.id,
      action: `video.${text.data.action}`,
      target: `video:${id}`,
      summary: video.title,
    });
    return answerForm(c, `/editor/video/${id}`, undefined, ACTION_NAMES[text.data.action], { id });
  });

  routes.post('/editor/video/:id/delete', validate('param', idParam), async (c) => {
    const editor = await requireEditor(readToken(c));
    const { id } = c.req.valid('param');
    const title = await deleteVideo(id);
    if (title === undefined) throw notFound('要删除的视频不存在');
    await recordEditorAction({ accountId: editor.id, action: 'video.delete', target: `video:${id}`, summary: title });
    return answerForm(c, '/editor?tab=video', undefined, '视频已删除');
  });
  return routes;
}
