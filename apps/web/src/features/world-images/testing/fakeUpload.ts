import { vi } from 'vitest';

export interface SentUpload {
  url: string;
  headers: Record<string, string>;
  withCredentials: boolean;
  file: File;
}

type Reply = { status: number; body: unknown };

/**
 * Replaces XMLHttpRequest for uploads: reports 50 % then 100 % progress (150 ms apart, long enough to be seen), then answers with what `reply`
 * gives for the file. Returns the uploads sent.
 */
export function stubUploads(reply: (file: File) => Reply): SentUpload[] {
  const sent: SentUpload[] = [];
  class FakeXhr {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    withCredentials = false;
    status = 0;
    responseText = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(form: FormData) {
      const file = form.get('file') as File;
      sent.push({ url: this.url, headers: this.headers, withCredentials: this.withCredentials, file });
      const progress = (loaded: number) =>
        this.upload.onprogress?.({ lengthComputable: true, loaded, total: 100 } as ProgressEvent);
      setTimeout(() => {
        progress(50);
        setTimeout(() => {
          progress(100);
          const { status, body } = reply(file);
          this.status = status;
          this.responseText = JSON.stringify(body);
          this.onload?.();
        }, 150);
      }, 150);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}
