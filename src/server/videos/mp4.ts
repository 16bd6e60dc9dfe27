import { createFile, Log, type Movie, MP4BoxBuffer } from 'mp4box';
import type { ByteSource } from './byte-source.ts';
import { MP4_CODECS, VideoFormatError, type VideoProbe } from './formats.ts';

const TRUNCATED = '视频文件不完整，可能在上传或导出时中断了，请重新导出后上传';
const CHUNK = 1024 * 1024;

Log.setLogLevel(Log.error);

/**
 * The top-level boxes must tile the file exactly: a file cut short ends inside its last box (often
 * the media data), which the movie header alone does not show.
 */
async function checkBoxesTile(source: ByteSource): Promise<string[]> {
  const types: string[] = [];
  let offset = 0;
  while (offset < source.size) {
    const head = await source.read(offset, 16);
    if (head.byteLength < 8) throw new VideoFormatError(TRUNCATED);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    let size = view.getUint32(0);
    const type = new TextDecoder('latin1').decode(head.subarray(4, 8));
    if (size === 1) {
      if (head.byteLength < 16) throw new VideoFormatError(TRUNCATED);
      size = Number(view.getBigUint64(8));
    } else if (size === 0) size = source.size - offset;
    if (size < 8) throw new VideoFormatError('文件不是有效的 MP4 视频（盒子长度有误）');
    if (offset + size > source.size) throw new VideoFormatError(TRUNCATED);
    types.push(type);
    offset += size;
  }
  return types;
}

/** Parses the movie with mp4box, reading only the parts it asks for (it skips the media data). */
async function readMovie(source: ByteSource): Promise<Movie> {
  const file = createFile();
  let movie: Movie | undefined;
  let failure: string | undefined;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = (_module, message) => {
    failure = message;
  };
  let offset = 0;
  while (!movie && !failure && offset < source.size) {
    const bytes = await source.read(offset, CHUNK);
    if (bytes.byteLength === 0) break;
    // A copy: mp4box keeps the buffer, and a Node Buffer may be a view of a larger shared one.
    const copy = Uint8Array.prototype.slice.call(bytes).buffer;
    const next = file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, offset));
    offset = next > offset ? next : offset + bytes.byteLength;
  }
  file.flush();
  if (failure) throw new VideoFormatError('文件不是有效的 MP4 视频');
  if (!movie) throw new VideoFormatError('MP4 文件里没有影片信息（moov），可能不完整');
  return movie;
}

/** Checks an MP4 file (box structure, H.264/AAC tracks, completeness) and reads its duration and picture size. */
export async function probeMp4(source: ByteSource): Promise<VideoProbe> {
  const types = await checkBoxesTile(source);
  if (types[0] !== 'ftyp') throw new VideoFormatError('文件不是 MP4 视频');
  if (!types.includes('moov')) throw new VideoFormatError('MP4 文件里没有影片信息（moov），可能不完整');
  const movie = await readMovie(source);
  const video = movie.videoTracks;
  if (video.length === 0) throw new VideoFormatError('文件里没有视频画面');
  const fourcc = (codec: string) => codec.split('.')[0] ?? '';
  for (const track of video) {
    if (!(MP4_CODECS.video as readonly string[]).includes(fourcc(track.codec))) {
      throw new VideoFormatError(`不支持的画面编码「${fourcc(track.codec)}」：MP4 视频只接受 H.264 画面和 AAC 声音`);
    }
  }
  for (const track of movie.audioTracks) {
    if (!(MP4_CODECS.audio as readonly string[]).includes(fourcc(track.codec))) {
      throw new VideoFormatError(`不支持的声音编码「${fourcc(track.codec)}」：MP4 视频只接受 H.264 画面和 AAC 声音`);
    }
  }
  // The movie header's duration; a fragmented file may leave it zero and give the fragments' total instead.
  const fragments = movie.fragment_duration;
  const seconds =
    movie.duration > 0 && movie.timescale > 0
      ? movie.duration / movie.timescale
      : fragments && fragments.den > 0
        ? fragments.num / fragments.den
        : 0;
  const [picture] = video;
  return {
    container: 'mp4',
    mime: 'video/mp4',
    durationMs: Math.round(seconds * 1000),
    width: picture?.video?.width ?? picture?.track_width ?? 0,
    height: picture?.video?.height ?? picture?.track_height ?? 0,
    videoCodec: picture?.codec ?? '',
    audioCodec: movie.audioTracks[0]?.codec ?? null,
  };
}
