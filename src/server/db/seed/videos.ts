import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { serverSource } from '../../paths.ts';
import { createVideo } from '../../videos/videos.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { videos } from '../schema/index.ts';

/** The seed videos made by scripts/make-videos.ts: `<slug>.webm`, `.png` (poster), `.vtt` (captions), listed in videos.json. */
export const VIDEO_SEED_DIR = serverSource('db', 'seed', 'videos');

interface SeedVideo {
  slug: string;
  title: string;
  summary: string;
}

/**
 * Adds the seed videos that are not there yet (keyed by slug), published, through the same checks
 * as an editor's upload: the container is parsed for its duration and the poster re-encoded.
 * Answers how many were added.
 */
export async function seedVideos(database?: Db): Promise<number> {
  const db = database ?? (await configuredDb());
  const list = JSON.parse(fs.readFileSync(path.join(VIDEO_SEED_DIR, 'videos.json'), 'utf8')) as SeedVideo[];
  const existing = await db
    .select({ slug: videos.slug })
    .from(videos)
    .where(
      inArray(
        videos.slug,
        list.map((video) => video.slug),
      ),
    );
  const have = new Set(existing.map((row) => row.slug));
  let added = 0;
  // The first in the list is published last, so it leads the newest-first lists.
  for (const video of [...list].reverse()) {
    if (have.has(video.slug)) continue;
    const file = (extension: string) => path.join(VIDEO_SEED_DIR, `${video.slug}.${extension}`);
    await createVideo(
      {
        title: video.title,
        summary: video.summary,
        videoPath: file('webm'),
        poster: fs.readFileSync(file('png')),
        captions: fs.readFileSync(file('vtt')),
        createdBy: null,
        slug: video.slug,
        publish: true,
      },
      db,
    );
    added++;
  }
  return added;
}
