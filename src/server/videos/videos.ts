import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { and, count, desc, eq, isNotNull, or } from 'drizzle-orm';
import type { VideoDetail, VideoListItem } from '../../contract/videos.ts';
import { PageNotFoundError } from '../../lib/route-error.ts';
import { isValidRouteId } from '../../lib/routes.ts';
import { contentChanged } from '../content/changes.ts';
import { offsetOf, type Page, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { videos } from '../db/schema/index.ts';
import { storage } from '../storage/index.ts';
import { fileSource } from './byte-source.ts';
import { checkCaptions } from './captions.ts';
import type { VideoProbe } from './formats.ts';
import { encodePoster } from './poster.ts';
import { probeVideo } from './probe.ts';

type VideoRow = typeof videos.$inferSelect;

/** What makes a new video: its text, and the files as they arrived (checked here before anything is stored). */
export interface NewVideo {
  title: string;
  summary: string;
  /** A file on disk holding the uploaded video. */
  videoPath: string;
  poster: Uint8Array;
  captions: Uint8Array;
  createdBy: number | null;
  slug?: string;
  publish?: boolean;
}

function listItemOf(row: VideoRow): VideoListItem {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    poster: storage().url(row.posterKey),
    durationMs: row.durationMs,
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

function detailOf(row: VideoRow): VideoDetail {
  return {
    ...listItemOf(row),
    src: storage().url(row.fileKey),
    mime: row.mime as VideoDetail['mime'],
    captions: row.captionsKey ? storage().url(row.captionsKey) : null,
    width: row.width,
    height: row.height,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    status: row.status,
  };
}

/** Published videos, newest first. */
export async function listVideos(page: PageRequest, database?: Db): Promise<Page<VideoListItem>> {
  const db = database ?? (await configuredDb());
  const published = eq(videos.status, 'published');
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(videos)
      .where(published)
      .orderBy(desc(videos.publishedAt), desc(videos.id))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(videos).where(published),
  ]);
  return toPage(rows.map(listItemOf), total?.n ?? 0, page);
}

/** Every video, drafts too, newest first (the editing area). */
export async function listAllVideos(database?: Db): Promise<VideoDetail[]> {
  const db = database ?? (await configuredDb());
  const rows = await db.select().from(videos).orderBy(desc(videos.createdAt), desc(videos.id)).limit(500);
  return rows.map(detailOf);
}

/** One video: published ones for everybody, drafts too when `drafts` (the editor). */
export async function getVideo(id: number, { drafts = false } = {}, database?: Db): Promise<VideoDetail | undefined> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select()
    .from(videos)
    .where(drafts ? eq(videos.id, id) : and(eq(videos.id, id), eq(videos.status, 'published')));
  return row ? detailOf(row) : undefined;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Checks the three files of a video; throws VideoFormatError (a Chinese message) for the first that fails. */
async function checkFiles(input: Pick<NewVideo, 'videoPath' | 'poster' | 'captions'>): Promise<{
  probe: VideoProbe;
  poster: Buffer;
  captions: string;
}> {
  const handle = await fsp.open(input.videoPath, 'r');
  let probe: VideoProbe;
  try {
    probe = await probeVideo(await fileSource(handle));
  } finally {
    await handle.close();
  }
  const captions = checkCaptions(input.captions);
  const { webp } = await encodePoster(input.poster);
  return { probe, poster: webp, captions };
}

/**
 * Checks and stores a new video. Files are stored under keys named by their content (so an
 * answer for a key never changes and may be cached for a year), before the row that names them;
 * if the row cannot be written, the files no other row names are removed again.
 */
export async function createVideo(input: NewVideo, database?: Db): Promise<VideoDetail> {
  const db = database ?? (await configuredDb());
  const { probe, poster, captions } = await checkFiles(input);
  const captionBytes = new TextEncoder().encode(captions);
  const extension = probe.container === 'mp4' ? 'mp4' : 'webm';
  const keys = {
    fileKey: `videos/${(await sha256OfFile(input.videoPath)).slice(0, 24)}.${extension}`,
    posterKey: `videos/posters/${digest(poster).slice(0, 24)}.webp`,
    captionsKey: `videos/captions/${digest(captionBytes).slice(0, 24)}.vtt`,
  };
  const { size } = await fsp.stat(input.videoPath);
  const now = new Date();
  try {
    await storage().put(keys.fileKey, fs.createReadStream(input.videoPath));
    await storage().put(keys.posterKey, poster);
    await storage().put(keys.captionsKey, captionBytes);
    const [row] = await db
      .insert(videos)
      .values({
        ...keys,
        slug: input.slug ?? null,
        title: input.title,
        summary: input.summary,
        durationMs: probe.durationMs,
        width: probe.width,
        height: probe.height,
        mime: probe.mime,
        size,
        status: input.publish ? 'published' : 'draft',
        publishedAt: input.publish ? now : null,
        createdBy: input.createdBy,
      })
      .returning();
    if (!row) throw new Error('video row not written');
    await contentChanged('video');
    return detailOf(row);
  } catch (error) {
    await removeUnusedFiles(Object.values(keys), db);
    throw error;
  }
}

/** Removes stored files that no video row names any more (several rows may share one by content). */
async function removeUnusedFiles(keys: string[], db: Db): Promise<void> {
  for (const key of keys) {
    const [used] = await db
      .select({ id: videos.id })
      .from(videos)
      .where(
        or(
          eq(videos.fileKey, key),
          eq(videos.posterKey, key),
          and(isNotNull(videos.captionsKey), eq(videos.captionsKey, key)),
        ),
      )
      .limit(1);
    if (!used) await storage().delete(key);
  }
}

/** What an editor changes on a video: its text and whether it is shown. */
export interface VideoEdit {
  title: string;
  summary: string;
  action: 'save' | 'publish' | 'unpublish';
}

/** Saves an editor's change; answers undefined when the video does not exist. */
export async function updateVideo(id: number, edit: VideoEdit, database?: Db): Promise<VideoDetail | undefined> {
  const db = database ?? (await configuredDb());
  const [current] = await db.select().from(videos).where(eq(videos.id, id));
  if (!current) return undefined;
  const status = edit.action === 'publish' ? 'published' : edit.action === 'unpublish' ? 'draft' : current.status;
  const [row] = await db
    .update(videos)
    .set({
      title: edit.title,
      summary: edit.summary,
      status,
      publishedAt: status === 'published' ? (current.publishedAt ?? new Date()) : current.publishedAt,
      updatedAt: new Date(),
    })
    .where(eq(videos.id, id))
    .returning();
  await contentChanged('video');
  return row ? detailOf(row) : undefined;
}

/** Deletes a video and the files no other video uses; answers its title, or undefined when there was none. */
export async function deleteVideo(id: number, database?: Db): Promise<string | undefined> {
  const db = database ?? (await configuredDb());
  const [row] = await db.delete(videos).where(eq(videos.id, id)).returning();
  if (!row) return undefined;
  await removeUnusedFiles([row.fileKey, row.posterKey, ...(row.captionsKey ? [row.captionsKey] : [])], db);
  await contentChanged('video');
  return row.title;
}

/** The published video that a page's route id names, or a 404 (thrown before the page streams). */
export async function videoForRoute(id: string | undefined): Promise<VideoDetail> {
  if (!isValidRouteId(id, 'numeric')) throw new PageNotFoundError(`Malformed video id ${id}`);
  const video = await getVideo(Number(id));
  if (!video) throw new PageNotFoundError(`No published video ${id}`);
  return video;
}
