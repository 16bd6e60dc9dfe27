// Sends the editor's video forms to the API and shows the answer: the upload with a progress bar
// (XMLHttpRequest reports upload progress, fetch does not), edits, and deletion after a confirm.
// Without script the forms post as they are and the API redirects back with ?done or ?error.

interface Answer {
  code?: string;
  message?: string;
  data?: { id?: number } | null;
}

function send(
  form: HTMLFormElement,
  data: FormData | URLSearchParams,
  onProgress?: (share: number) => void,
): Promise<Answer> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    // The attribute: the buttons named `action` shadow the form's own property.
    request.open('POST', form.getAttribute('action') ?? '');
    request.setRequestHeader('Accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      try {
        resolve(JSON.parse(request.responseText) as Answer);
      } catch {
        resolve({ message: request.status === 413 ? '文件太大' : '保存失败，请稍后再试' });
      }
    });
    request.addEventListener('error', () => resolve({ message: '网络中断，请检查网络后重试' }));
    request.send(data);
  });
}

function showError(message: string): void {
  const slot = document.querySelector<HTMLElement>('[data-error-for="form"]');
  if (!slot) return;
  slot.textContent = message;
  slot.hidden = false;
  slot.scrollIntoView({ block: 'center' });
}

/** Wires the video forms of the editor page. */
export function sendVideoForm(): void {
  const form = document.querySelector<HTMLFormElement>('[data-video-form]');
  const progress = document.querySelector<HTMLProgressElement>('[data-upload-progress]');
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    const fields = new FormData(form);
    if (submitter?.name) fields.set(submitter.name, submitter.value);
    const upload = form.getAttribute('enctype') === 'multipart/form-data';
    const body = upload ? fields : new URLSearchParams([...fields].map(([key, value]) => [key, String(value)]));
    const buttons = [...form.querySelectorAll<HTMLButtonElement>('button')];
    for (const button of buttons) button.disabled = true;
    if (progress && upload) progress.hidden = false;
    const answer = await send(form, body, (share) => {
      if (progress) progress.value = Math.round(share * 100);
    });
    for (const button of buttons) button.disabled = false;
    if (progress) progress.hidden = true;
    if (answer.code === '200' && answer.data?.id) {
      location.assign(`/editor/video/${answer.data.id}?done=${encodeURIComponent(answer.message ?? '已保存')}`);
      return;
    }
    showError(answer.message ?? '保存失败，请稍后再试');
  });
  const remove = document.querySelector<HTMLFormElement>('[data-video-delete]');
  remove?.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!confirm('删除后视频、封面和字幕都会移除，不能恢复。确定删除吗？')) return;
    const answer = await send(remove, new URLSearchParams());
    if (answer.code === '200') location.assign(`/editor?tab=video&done=${encodeURIComponent(answer.message ?? '')}`);
    else showError(answer.message ?? '删除失败，请稍后再试');
  });
}
