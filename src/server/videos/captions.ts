import { VIDEO_CAPTIONS_MAX_BYTES } from '../../contract/videos.ts';
import { VideoFormatError } from './formats.ts';

// A WebVTT check small enough to write here: the header line, and every cue's timing line
// parsing with its start not after its end. The text of the cues is shown by the browser as text.

const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

function millisecondsOf(stamp: string): number | undefined {
  const match = TIMESTAMP.exec(stamp);
  if (!match) return undefined;
  const [, hours = '0', minutes = '0', seconds = '0', millis = '0'] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis);
}

/** Checks a WebVTT captions file and answers its text (UTF-8, without a byte-order mark). */
export function checkCaptions(bytes: Uint8Array): string {
  if (bytes.byteLength > VIDEO_CAPTIONS_MAX_BYTES) {
    throw new VideoFormatError(`字幕文件太大，最大 ${VIDEO_CAPTIONS_MAX_BYTES / 1024} KB`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new VideoFormatError('字幕文件必须是 UTF-8 编码的 WebVTT 文件');
  }
  text = text.replace(/^\uFEFF/, '');
  if (!/^WEBVTT(?:[ \t][^\n]*)?(?:\r?\n|$)/.test(text)) {
    throw new VideoFormatError('字幕文件必须以「WEBVTT」开头（WebVTT 格式）');
  }
  const lines = text.split(/\r\n|\r|\n/);
  let cues = 0;
  for (const [index, line] of lines.entries()) {
    if (!line.includes('-->')) continue;
    const [startText = '', rest = ''] = line.split('-->');
    const start = millisecondsOf(startText.trim());
    const end = millisecondsOf(rest.trim().split(/[ \t]+/)[0] ?? '');
    if (start === undefined || end === undefined || end < start) {
      throw new VideoFormatError(`字幕第 ${index + 1} 行的时间格式不对，应为「00:00:01.000 --> 00:00:03.500」`);
    }
    cues++;
  }
  if (cues === 0) throw new VideoFormatError('字幕文件里没有任何一条字幕');
  return text;
}
