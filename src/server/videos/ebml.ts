import type { ByteSource } from './byte-source.ts';
import { VideoFormatError, type VideoProbe, WEBM_CODECS } from './formats.ts';

// A reader of exactly the EBML elements a WebM check needs: the header's DocType, the Segment's
// Info (TimecodeScale, Duration), Tracks (type, CodecID, picture size) and the Clusters' block
// times. The npm decoders (ebml, ts-ebml) turn a whole file into element objects in memory; an
// upload may be 200 MB, and this walks it by seeking over the blocks it does not read.

const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
} as const;

/** Children of a Segment: an element of unknown size (a live recording's Cluster) ends where one starts. */
const SEGMENT_CHILDREN = new Set([
  ID.Info,
  ID.Tracks,
  ID.Cluster,
  0x114d9b74, // SeekHead
  0x1c53bb6b, // Cues
  0x1254c367, // Tags
  0x1043a770, // Chapters
  0x1941a469, // Attachments
]);

const TRUNCATED = '视频文件不完整，可能在上传或导出时中断了，请重新导出后上传';

interface Header {
  id: number;
  /** Undefined for an element of unknown size. */
  size: number | undefined;
  dataStart: number;
}

/** Reads element headers through a window of the file, so walking blocks costs few reads. */
class Reader {
  readonly #source: ByteSource;
  #window: Uint8Array = new Uint8Array(0);
  #windowStart = 0;

  constructor(source: ByteSource) {
    this.#source = source;
  }

  get size(): number {
    return this.#source.size;
  }

  async bytes(offset: number, length: number): Promise<Uint8Array> {
    const end = offset + length;
    if (offset < this.#windowStart || end > this.#windowStart + this.#window.byteLength) {
      this.#window = await this.#source.read(offset, Math.max(length, 64 * 1024));
      this.#windowStart = offset;
    }
    const start = offset - this.#windowStart;
    return this.#window.subarray(start, Math.min(start + length, this.#window.byteLength));
  }

  /** A variable-length integer: its value (marker kept for IDs), its length and whether all its bits are set. */
  async vint(offset: number, keepMarker: boolean): Promise<{ value: number; length: number; allOnes: boolean }> {
    const bytes = await this.bytes(offset, 8);
    const first = bytes[0];
    if (first === undefined) throw new VideoFormatError(TRUNCATED);
    const length = Math.clz32(first) - 23;
    if (length < 1 || length > 8 || bytes.byteLength < length) {
      throw new VideoFormatError(bytes.byteLength < length ? TRUNCATED : '文件不是有效的 WebM 视频（元素编码有误）');
    }
    let value = keepMarker ? first : first & (0xff >> length);
    let allOnes = value === 0xff >> length;
    for (let i = 1; i < length; i++) {
      const byte = bytes[i] ?? 0;
      value = value * 256 + byte;
      allOnes &&= byte === 0xff;
    }
    return { value, length, allOnes };
  }

  async header(offset: number): Promise<Header> {
    const id = await this.vint(offset, true);
    const size = await this.vint(offset + id.length, false);
    return { id: id.value, size: size.allOnes ? undefined : size.value, dataStart: offset + id.length + size.length };
  }

  async uint(header: Header): Promise<number> {
    const bytes = await this.bytes(header.dataStart, header.size ?? 0);
    return bytes.reduce((value, byte) => value * 256 + byte, 0);
  }

  async float(header: Header): Promise<number> {
    const bytes = await this.bytes(header.dataStart, header.size ?? 0);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength === 4) return view.getFloat32(0);
    if (bytes.byteLength === 8) return view.getFloat64(0);
    return 0;
  }

  async text(header: Header): Promise<string> {
    const bytes = await this.bytes(header.dataStart, Math.min(header.size ?? 0, 64));
    return new TextDecoder('latin1').decode(bytes).replace(/\0+$/, '');
  }

  /** The headers of an element's children, in order; each must fit inside its parent and the file. */
  async *children(start: number, end: number): AsyncGenerator<Header> {
    let offset = start;
    while (offset < end) {
      const child = await this.header(offset);
      if (child.size === undefined) throw new VideoFormatError('文件不是有效的 WebM 视频（元素长度未知）');
      const childEnd = child.dataStart + child.size;
      if (childEnd > this.size) throw new VideoFormatError(TRUNCATED);
      if (childEnd > end) throw new VideoFormatError('文件不是有效的 WebM 视频（元素越界）');
      yield child;
      offset = childEnd;
    }
  }
}

interface Track {
  number: number;
  type: number;
  codec: string;
  width: number;
  height: number;
}

async function readTrack(reader: Reader, entry: Header): Promise<Track> {
  const track: Track = { number: 0, type: 0, codec: '', width: 0, height: 0 };
  const end = entry.dataStart + (entry.size ?? 0);
  for await (const child of reader.children(entry.dataStart, end)) {
    if (child.id === ID.TrackNumber) track.number = await reader.uint(child);
    else if (child.id === ID.TrackType) track.type = await reader.uint(child);
    else if (child.id === ID.CodecID) track.codec = await reader.text(child);
    else if (child.id === ID.Video) {
      for await (const picture of reader.children(child.dataStart, child.dataStart + (child.size ?? 0))) {
        if (picture.id === ID.PixelWidth) track.width = await reader.uint(picture);
        else if (picture.id === ID.PixelHeight) track.height = await reader.uint(picture);
      }
    }
  }
  return track;
}

/** The time of a Block or SimpleBlock (cluster time + its signed 16-bit offset), in timecode units. */
async function blockTime(reader: Reader, block: Header, clusterTime: number): Promise<number> {
  const track = await reader.vint(block.dataStart, false);
  const bytes = await reader.bytes(block.dataStart + track.length, 2);
  if (bytes.byteLength < 2) throw new VideoFormatError(TRUNCATED);
  return clusterTime + new DataView(bytes.buffer, bytes.byteOffset, 2).getInt16(0);
}

/**
 * Walks one Cluster and answers where it ends and the end time of its last block. A live
 * recording (MediaRecorder) writes Clusters of unknown size: one ends where the next Segment child starts.
 */
async function readCluster(
  reader: Reader,
  cluster: Header,
  segmentEnd: number,
): Promise<{ end: number; last: number }> {
  const known = cluster.size !== undefined;
  const end = known ? cluster.dataStart + (cluster.size ?? 0) : segmentEnd;
  let offset = cluster.dataStart;
  let time = 0;
  let last = 0;
  while (offset < end) {
    const child = await reader.header(offset);
    if (!known && SEGMENT_CHILDREN.has(child.id)) break;
    if (child.size === undefined) throw new VideoFormatError('文件不是有效的 WebM 视频（元素长度未知）');
    const childEnd = child.dataStart + child.size;
    if (childEnd > reader.size) throw new VideoFormatError(TRUNCATED);
    if (child.id === ID.Timecode) time = await reader.uint(child);
    else if (child.id === ID.SimpleBlock) last = Math.max(last, await blockTime(reader, child, time));
    else if (child.id === ID.BlockGroup) {
      let start = 0;
      let duration = 0;
      for await (const part of reader.children(child.dataStart, childEnd)) {
        if (part.id === ID.Block) start = await blockTime(reader, part, time);
        else if (part.id === ID.BlockDuration) duration = await reader.uint(part);
      }
      last = Math.max(last, start + duration);
    }
    offset = childEnd;
  }
  return { end: offset, last };
}

/** Checks a WebM file (DocType, tracks and codecs, completeness) and reads its duration and picture size. */
export async function probeWebm(source: ByteSource): Promise<VideoProbe> {
  const reader = new Reader(source);
  const header = await reader.header(0);
  if (header.id !== ID.EBML || header.size === undefined) throw new VideoFormatError('文件不是 WebM 视频');
  let docType = '';
  for await (const child of reader.children(header.dataStart, header.dataStart + header.size)) {
    if (child.id === ID.DocType) docType = await reader.text(child);
  }
  if (docType !== 'webm') {
    throw new VideoFormatError(`文件不是 WebM 视频（它声明的文档类型是「${docType || '空'}」）`);
  }
  const segment = await reader.header(header.dataStart + header.size);
  if (segment.id !== ID.Segment) throw new VideoFormatError(TRUNCATED);
  const segmentEnd = segment.size === undefined ? reader.size : segment.dataStart + segment.size;
  if (segmentEnd > reader.size) throw new VideoFormatError(TRUNCATED);

  let scale = 1_000_000;
  let declared = 0;
  let lastBlock = 0;
  const tracks: Track[] = [];
  let offset = segment.dataStart;
  while (offset < segmentEnd) {
    const child = await reader.header(offset);
    if (child.id === ID.Cluster) {
      const cluster = await readCluster(reader, child, segmentEnd);
      lastBlock = Math.max(lastBlock, cluster.last);
      offset = cluster.end;
      continue;
    }
    if (child.size === undefined) throw new VideoFormatError('文件不是有效的 WebM 视频（元素长度未知）');
    const end = child.dataStart + child.size;
    if (end > reader.size) throw new VideoFormatError(TRUNCATED);
    if (child.id === ID.Info) {
      for await (const info of reader.children(child.dataStart, end)) {
        if (info.id === ID.TimecodeScale) scale = (await reader.uint(info)) || scale;
        else if (info.id === ID.Duration) declared = await reader.float(info);
      }
    } else if (child.id === ID.Tracks) {
      for await (const entry of reader.children(child.dataStart, end)) {
        if (entry.id === ID.TrackEntry) tracks.push(await readTrack(reader, entry));
      }
    }
    offset = end;
  }

  const video = tracks.filter((track) => track.type === 1);
  const audio = tracks.filter((track) => track.type === 2);
  if (video.length === 0) throw new VideoFormatError('文件里没有视频画面');
  for (const track of [...video, ...audio]) {
    const allowed: readonly string[] = track.type === 1 ? WEBM_CODECS.video : WEBM_CODECS.audio;
    if (!allowed.includes(track.codec)) {
      throw new VideoFormatError(
        `不支持的编码「${track.codec}」：WebM 视频只接受 VP8、VP9、AV1 画面和 Vorbis、Opus 声音`,
      );
    }
  }
  // A file's own Duration when it has one; a live recording has none, and its last block ends it.
  const durationMs = Math.round(((declared > 0 ? declared : lastBlock) * scale) / 1_000_000);
  const [picture] = video;
  return {
    container: 'webm',
    mime: 'video/webm',
    durationMs,
    width: picture?.width ?? 0,
    height: picture?.height ?? 0,
    videoCodec: picture?.codec ?? '',
    audioCodec: audio[0]?.codec ?? null,
  };
}
