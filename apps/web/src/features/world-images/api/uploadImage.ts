import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, errorMessage, responseError } from '../../../api/errors';
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '../../../api/middleware';
import { notify, update } from '../../../components/toasts';
import { serverImagesKey, type WorldImage } from './serverImages';

const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Uploads one file as multipart field `file`. XMLHttpRequest rather than the API client because fetch
 * reports no upload progress; it sends the cookies and the XSRF header exactly as the client does.
 */
export function uploadImage(
  guildId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<WorldImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/world_images/${guildId}/upload`);
    xhr.withCredentials = true;
    const token = readCookie(XSRF_COOKIE);
    if (token) xhr.setRequestHeader(XSRF_HEADER, token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as WorldImage);
      else reject(responseError(new Response(null, { status: xhr.status }), body));
    };
    xhr.onerror = () => reject(new ApiError('network', 'Network error: the server could not be reached.'));
    xhr.onabort = () => reject(new ApiError('aborted', 'The request was aborted.'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/**
 * Uploads files one by one, each with its own progress notice that ends as success or
 * 'Failed to upload {file}: {server text}'; the Server Images list is read again afterwards.
 */
export function useUploadImages(guildId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (files: readonly File[]) => {
      for (const file of files) {
        const id = notify({
          type: 'progress',
          message: `Uploading ${file.name}`,
          progress: 0,
          persistent: true,
        });
        try {
          await uploadImage(guildId, file, (progress) => update(id, { progress }));
          update(id, { type: 'success', message: `Uploaded ${file.name}`, persistent: false });
        } catch (error) {
          update(id, {
            type: 'error',
            message: `Failed to upload ${file.name}: ${errorMessage(error, 'The upload failed.')}`,
            persistent: false,
          });
        }
      }
      await queryClient.invalidateQueries({ queryKey: serverImagesKey(guildId) });
    },
    [guildId, queryClient],
  );
}
