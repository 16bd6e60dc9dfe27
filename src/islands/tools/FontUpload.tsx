import { type DragEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { type UploadedFont, uploadFont } from '../../api/font-tools.ts';
import { formatBytes, formatCount } from '../../components/font/font-format.ts';
import { ProgressBar } from './ProgressBar.tsx';
import { clockTime, FONT_FILE_ACCEPT, isAbort, messageOf, type PickedFont } from './picked-font.ts';

interface Props {
  onChange: (font: PickedFont | null) => void;
}

/**
 * Uploads a font file, chosen in the file dialog or dropped on the zone, with a progress bar; then
 * shows what the server read from it (family, format, size, glyph count).
 */
export function FontUpload({ onChange }: Props): ReactElement {
  const inputId = useId();
  const [uploading, setUploading] = useState<{ name: string; share: number; since: number } | null>(null);
  const [font, setFont] = useState<UploadedFont | null>(null);
  const [error, setError] = useState('');
  const [dragging, setDragging] = useState(false);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  async function upload(file: File | undefined): Promise<void> {
    if (!file) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setError('');
    setFont(null);
    onChange(null);
    const since = performance.now();
    setUploading({ name: file.name, share: 0, since });
    try {
      const uploaded = await uploadFont(
        file,
        (share) => setUploading({ name: file.name, share, since }),
        controller.signal,
      );
      setFont(uploaded);
      onChange({
        source: { fileId: uploaded.fileId },
        label: uploaded.familyName || uploaded.name,
        format: uploaded.format,
        faces: uploaded.faces,
      });
    } catch (failure) {
      if (!isAbort(failure)) setError(messageOf(failure, '上传未成功，请稍后再试'));
    } finally {
      if (running.current === controller) {
        running.current = null;
        setUploading(null);
      }
    }
  }

  function drop(event: DragEvent<HTMLLabelElement>): void {
    event.preventDefault();
    setDragging(false);
    void upload(event.dataTransfer.files[0]);
  }

  return (
    <div className="font-upload">
      {/* The whole zone is the file input's label: a click anywhere opens the file dialog. */}
      <label
        htmlFor={inputId}
        className="font-upload__zone"
        data-dragging={dragging ? '' : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <svg className="font-upload__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 16V4m-5 5 5-5 5 5M4 16v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
        </svg>
        <span className="font-upload__prompt">
          <span className="btn font-upload__button">{font ? '换一个文件' : '选择字体文件'}</span>
          <span>或把文件拖到这里</span>
        </span>
        <span className="font-upload__hint">支持 TTF、OTF、TTC、WOFF、WOFF2、EOT；文件只临时保存，到期自动删除。</span>
      </label>
      <input
        id={inputId}
        className="visually-hidden font-upload__input"
        type="file"
        accept={FONT_FILE_ACCEPT}
        disabled={Boolean(uploading)}
        onChange={(event) => {
          void upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />

      {uploading && (
        <ProgressBar
          label="上传进度"
          value={uploading.share}
          status={uploading.share < 1 ? `正在上传 ${uploading.name}` : '上传完成，正在读取字体'}
          indeterminate={uploading.share >= 1}
          since={uploading.since}
        />
      )}
      {error && (
        <p className="tool-error" role="alert">
          {error}
        </p>
      )}
      {font && (
        <dl className="font-file" aria-label="已上传的字体">
          <div className="font-file__name">
            <dt>文件</dt>
            <dd>{font.name}</dd>
          </div>
          <div>
            <dt>字体名称</dt>
            <dd>{font.familyName || '未命名'}</dd>
          </div>
          <div>
            <dt>格式</dt>
            <dd>
              {font.format.toUpperCase()}
              {font.faces > 1 ? `（含 ${font.faces} 个字体）` : ''}
            </dd>
          </div>
          <div>
            <dt>大小</dt>
            <dd>{formatBytes(font.size)}</dd>
          </div>
          <div>
            <dt>字形</dt>
            <dd>{formatCount(font.glyphCount)} 个</dd>
          </div>
          {font.expiresAt && (
            <div>
              <dt>保留至</dt>
              <dd>{clockTime(font.expiresAt)}</dd>
            </div>
          )}
        </dl>
      )}
    </div>
  );
}
