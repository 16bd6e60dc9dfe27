import { and, count, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import type { PixelProject, PixelProjectData, PixelProjectSummary } from '../../contract/tools.ts';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { pixelProjects } from '../db/schema/index.ts';
import { badRequest, notFound, ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { editsFit, pixelEditsUpTo, pixelOptions } from './pixel.ts';

/** How many projects one account keeps. */
export const MAX_PIXEL_PROJECTS = 50;
/** How many edited glyphs one saved project holds. */
export const MAX_PROJECT_EDITS = 2000;

const projectBody = z
  .object({
    name: z.string().trim().min(1, '请填写项目名称').max(40, '项目名称最多 40 个字').meta({ label: '项目名称' }),
    source: z.object({ fontId: z.number().int().positive() }).nullable().meta({ label: '字体来源' }),
    sourceLabel: z.string().trim().max(80).default('').meta({ label: '字体名称' }),
    options: pixelOptions,
    charsets: z
      .array(z.enum(['gb2312', 'common3500', 'big5', 'latin']))
      .max(4)
      .default([])
      .meta({ label: '字符集' }),
    text: z.string().max(20_000, '文字最多 20000 个字符').default('').meta({ label: '自定义文字' }),
    family: z.string().trim().max(40, '字体名称最多 40 个字').default('').meta({ label: '字体名称' }),
    weight: z.number().int().min(100).max(900).default(400).meta({ label: '字重' }),
    edits: pixelEditsUpTo(MAX_PROJECT_EDITS),
  })
  .superRefine(editsFit);
const idParam = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '项目编号' }) });

type Row = typeof pixelProjects.$inferSelect;

function summaryOf(row: Row): PixelProjectSummary {
  return {
    id: row.id,
    name: row.name,
    sourceLabel: row.data.sourceLabel,
    grid: row.data.options.grid,
    editedGlyphs: row.data.edits.length,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The account's projects, most recently saved first. */
export async function listPixelProjects(accountId: number, database?: Db): Promise<PixelProjectSummary[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select()
    .from(pixelProjects)
    .where(eq(pixelProjects.accountId, accountId))
    .orderBy(desc(pixelProjects.updatedAt), desc(pixelProjects.id));
  return rows.map(summaryOf);
}

async function ownProject(db: Db, accountId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(pixelProjects)
    .where(and(eq(pixelProjects.id, id), eq(pixelProjects.accountId, accountId)))
    .limit(1);
  if (!row) throw notFound('项目不存在或已被删除');
  return row;
}

/**
 * The saved pixel-font projects of the signed-in user, mounted at /tools/api: GET pixel/projects,
 * POST pixel/projects (a new one), PUT and GET and DELETE pixel/projects/:id. Every project is
 * looked up with its owner.
 */
export function pixelProjectRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.get('/pixel/projects', async (c) => c.json(ok(await listPixelProjects(await requireAccount(resolve, c)))));
  routes.post('/pixel/projects', signedIn(resolve), validate('json', projectBody), async (c) => {
    const accountId = await requireAccount(resolve, c);
    const { name, ...data } = c.req.valid('json');
    const db = await configuredDb();
    const [held] = await db.select({ n: count() }).from(pixelProjects).where(eq(pixelProjects.accountId, accountId));
    if ((held?.n ?? 0) >= MAX_PIXEL_PROJECTS) {
      throw badRequest(`最多保存 ${MAX_PIXEL_PROJECTS} 个项目，请先删除不用的项目`);
    }
    const [row] = await db
      .insert(pixelProjects)
      .values({ accountId, name, data: data as PixelProjectData })
      .returning();
    if (!row) throw new Error('pixel_projects insert returned no row');
    return c.json(ok(summaryOf(row), '项目已保存'));
  });
  routes.put(
    '/pixel/projects/:id',
    signedIn(resolve),
    validate('param', idParam),
    validate('json', projectBody),
    async (c) => {
      const accountId = await requireAccount(resolve, c);
      const db = await configuredDb();
      await ownProject(db, accountId, c.req.valid('param').id);
      const { name, ...data } = c.req.valid('json');
      const [row] = await db
        .update(pixelProjects)
        .set({ name, data: data as PixelProjectData, updatedAt: new Date() })
        .where(and(eq(pixelProjects.id, c.req.valid('param').id), eq(pixelProjects.accountId, accountId)))
        .returning();
      if (!row) throw notFound('项目不存在或已被删除');
      return c.json(ok(summaryOf(row), '项目已保存'));
    },
  );
  routes.get('/pixel/projects/:id', validate('param', idParam), async (c) => {
    const accountId = await requireAccount(resolve, c);
    const row = await ownProject(await configuredDb(), accountId, c.req.valid('param').id);
    const project: PixelProject = { ...summaryOf(row), data: row.data };
    return c.json(ok(project));
  });
  routes.delete('/pixel/projects/:id', validate('param', idParam), async (c) => {
    const accountId = await requireAccount(resolve, c);
    const db = await configuredDb();
    await ownProject(db, accountId, c.req.valid('param').id);
    await db.delete(pixelProjects).where(eq(pixelProjects.id, c.req.valid('param').id));
    return c.json(ok(null, '项目已删除'));
  });
  return routes;
}
