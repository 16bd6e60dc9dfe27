import { isoDuration, type VideoDetail } from '../../contract/videos.ts';
import { absoluteUrl } from '../content/seo.ts';

/** schema.org VideoObject for a video page (name, description, poster, upload date, ISO 8601 duration, file, captions). */
export function videoJsonLd(video: VideoDetail, path: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: video.title,
    description: video.summary || video.title,
    thumbnailUrl: [absoluteUrl(video.poster)],
    uploadDate: video.publishedAt ?? video.createdAt,
    duration: isoDuration(video.durationMs),
    contentUrl: absoluteUrl(video.src),
    embedUrl: absoluteUrl(path),
    encodingFormat: video.mime,
    width: video.width,
    height: video.height,
    inLanguage: 'zh-CN',
    ...(video.captions
      ? { caption: { '@type': 'MediaObject', contentUrl: absoluteUrl(video.captions), encodingFormat: 'text/vtt' } }
      : {}),
  };
}
