// The site's video player (components/videos/VideoPlayer.astro): it takes over a server-rendered
// <video controls> by hiding the browser's controls and showing the page's own bar, whose every
// control is a labelled button, range or select reachable by keyboard. Without this script the
// native controls stay. Positions are remembered per video in localStorage.

import { formatDuration } from '../../contract/videos.ts';

const SEEK_STEP_SECONDS = 5;
/** A position this close to either end is not worth offering to resume. */
const RESUME_MARGIN_SECONDS = 3;

const storageKey = (id: string) => `video-position:${id}`;

function readPosition(id: string): number {
  try {
    return Number(localStorage.getItem(storageKey(id))) || 0;
  } catch {
    return 0;
  }
}

function writePosition(id: string, seconds: number): void {
  try {
    if (seconds > 0) localStorage.setItem(storageKey(id), seconds.toFixed(1));
    else localStorage.removeItem(storageKey(id));
  } catch {
    // Private browsing may refuse storage; the player works without it.
  }
}

function enhance(root: HTMLElement): void {
  const $ = <T extends Element>(name: string) => root.querySelector<T>(`[data-player-${name}]`);
  const video = $<HTMLVideoElement>('video');
  const bar = $<HTMLElement>('bar');
  const play = $<HTMLButtonElement>('play');
  const seek = $<HTMLInputElement>('seek');
  const time = $<HTMLElement>('time');
  const mute = $<HTMLButtonElement>('mute');
  const volume = $<HTMLInputElement>('volume');
  const captions = $<HTMLButtonElement>('captions');
  const speed = $<HTMLSelectElement>('speed');
  const fullscreen = $<HTMLButtonElement>('fullscreen');
  if (!video || !bar || !play || !seek || !time || !mute || !volume || !speed || !fullscreen) return;
  const id = root.dataset['videoId'] ?? '';

  video.controls = false;
  bar.hidden = false;
  const duration = () =>
    Number.isFinite(video.duration) && video.duration > 0 ? video.duration : Number(root.dataset['duration']) || 0;

  const showTime = () => {
    const text = `${formatDuration(video.currentTime * 1000)} / ${formatDuration(duration() * 1000)}`;
    time.textContent = text;
    seek.max = String(duration());
    if (document.activeElement !== seek || video.paused) seek.value = String(video.currentTime);
    seek.setAttribute('aria-valuetext', text);
  };
  const showPlaying = () => {
    const playing = !video.paused && !video.ended;
    play.setAttribute('aria-label', playing ? '暂停' : '播放');
    play.querySelector('[data-icon="play"]')?.classList.toggle('is-hidden', playing);
    play.querySelector('[data-icon="pause"]')?.classList.toggle('is-hidden', !playing);
  };
  const toggle = () => {
    if (video.paused || video.ended) void video.play().catch(() => undefined);
    else video.pause();
  };
  const seekTo = (seconds: number) => {
    video.currentTime = Math.max(0, Math.min(duration(), seconds));
    showTime();
  };

  play.addEventListener('click', toggle);
  video.addEventListener('click', toggle);
  for (const event of ['play', 'pause', 'ended']) video.addEventListener(event, showPlaying);
  for (const event of ['timeupdate', 'durationchange', 'loadedmetadata', 'seeked'])
    video.addEventListener(event, showTime);

  seek.addEventListener('input', () => seekTo(Number(seek.value)));
  // Arrow keys move by five seconds rather than the range's own step; Home and End go to either end.
  seek.addEventListener('keydown', (event) => {
    const moves: Record<string, number> = {
      ArrowLeft: video.currentTime - SEEK_STEP_SECONDS,
      ArrowDown: video.currentTime - SEEK_STEP_SECONDS,
      ArrowRight: video.currentTime + SEEK_STEP_SECONDS,
      ArrowUp: video.currentTime + SEEK_STEP_SECONDS,
      Home: 0,
      End: duration(),
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    seekTo(target);
  });

  const showVolume = () => {
    const silent = video.muted || video.volume === 0;
    mute.setAttribute('aria-pressed', String(silent));
    mute.setAttribute('aria-label', silent ? '取消静音' : '静音');
    volume.value = String(video.muted ? 0 : video.volume);
    volume.setAttribute('aria-valuetext', `${Math.round(Number(volume.value) * 100)}%`);
  };
  mute.addEventListener('click', () => {
    video.muted = !video.muted;
    if (!video.muted && video.volume === 0) video.volume = 1;
  });
  volume.addEventListener('input', () => {
    video.volume = Number(volume.value);
    video.muted = video.volume === 0;
  });
  video.addEventListener('volumechange', showVolume);

  const track = video.textTracks[0];
  if (captions && track) {
    const showCaptions = (on: boolean) => {
      track.mode = on ? 'showing' : 'hidden';
      // The button is named by its text, 字幕; whether the captions show is its pressed state.
      captions.setAttribute('aria-pressed', String(on));
    };
    showCaptions(true);
    captions.addEventListener('click', () => showCaptions(track.mode !== 'showing'));
  }

  speed.addEventListener('change', () => {
    video.playbackRate = Number(speed.value);
  });

  if (!document.fullscreenEnabled) fullscreen.hidden = true;
  fullscreen.addEventListener('click', () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.requestFullscreen().catch(() => undefined);
  });
  document.addEventListener('fullscreenchange', () => {
    fullscreen.setAttribute('aria-label', document.fullscreenElement === root ? '退出全屏' : '全屏');
  });

  // Remembers where the reader is, and offers to go back there next time.
  let lastSaved = 0;
  video.addEventListener('timeupdate', () => {
    if (Math.abs(video.currentTime - lastSaved) < 2) return;
    lastSaved = video.currentTime;
    writePosition(id, video.currentTime);
  });
  video.addEventListener('pause', () => writePosition(id, video.currentTime));
  video.addEventListener('ended', () => writePosition(id, 0));
  const saved = readPosition(id);
  const resume = $<HTMLElement>('resume');
  if (resume && saved > RESUME_MARGIN_SECONDS && saved < duration() - RESUME_MARGIN_SECONDS) {
    const text = $<HTMLElement>('resume-text');
    if (text) text.textContent = `上次看到 ${formatDuration(saved * 1000)}。`;
    resume.hidden = false;
    const close = () => {
      resume.hidden = true;
      play.focus();
    };
    $<HTMLButtonElement>('resume-yes')?.addEventListener('click', () => {
      seekTo(saved);
      void video.play().catch(() => undefined);
      close();
    });
    $<HTMLButtonElement>('resume-no')?.addEventListener('click', () => {
      writePosition(id, 0);
      seekTo(0);
      close();
    });
  }
  showTime();
  showPlaying();
  showVolume();
}

/** Takes over every player on the page that has not been taken over yet. */
export function enhancePlayers(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-player]:not([data-enhanced])')) {
    root.dataset['enhanced'] = '';
    enhance(root);
  }
}
