import type { ByteSource } from './byte-source.ts';
import { probeWebm } from './ebml.ts';
import { VideoFormatError, type VideoProbe } from './formats.ts';
import { probeMp4 } from './mp4.ts';

/**
 * Tells an MP4 from a WebM by its first bytes (never by the file's name or declared type), checks
 * it, and reads its duration. A video must last between a second and three hours.
 */
export async function probeVideo(source: ByteSource): Promise<VideoProbe> {
  const head = await source.read(0, 12);
  const text = new TextDecoder('latin1').decode(head);
  let probe: VideoProbe;
  if (text.slice(4, 8) === 'ftyp') probe = await probeMp4(source);
  else if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    probe = await probeWebm(source);
  else throw new VideoFormatError('文件不是 MP4 或 WebM 视频');
  if (!(probe.durationMs >= 500)) throw new VideoFormatError('读不出视频时长，或视频短于半秒，请重新导出后上传');
  if (probe.durationMs > 3 * 3600 * 1000) throw new VideoFormatError('视频不能长于 3 小时');
  return probe;
}
