import { normaliseErrorBody } from '@loggerhead/contract/errors.ts';
import { isAllowedByMap, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import { currentLang } from '../i18n/setup.ts';
import { ApiError } from './api-error.ts';
import { buildUrl, type Query, sessionLost } from './client.ts';
import { getPermissionMap, getToken } from './session-storage.ts';

export interface UploadOptions {
  permission?: PermissionKey;
  query?: Query;
  signal?: AbortSignal;
  /** Bytes sent so far and in all, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * Sends one file as multipart field `file` and resolves with the JSON answer. Unlike `request`
 * it reports upload progress (fetch cannot) and has no time-out: a big log on a slow line may take
 * minutes; `signal` cancels it. Errors are the same `ApiError`s as every other call.
 */
export function uploadFile<T>(path: string, file: Blob, name: string, opts: UploadOptions = {}): Promise<T> {
  if (opts.permission && !isAllowedByMap(getPermissionMap(), opts.permission)) return Promise.reject(ApiError.forbiddenLocally());
  if (opts.signal?.aborted) return Promise.reject(ApiError.canceled());
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, opts.query));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', currentLang());
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    const abort = () => xhr.abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    const done = () => opts.signal?.removeEventListener('abort', abort);
    xhr.onabort = () => {
      done();
      reject(ApiError.canceled());
    };
    xhr.onerror = () => {
      done();
      reject(ApiError.noResponse('Upload failed'));
    };
    xhr.onload = () => {
      done();
      let data: unknown = xhr.responseText;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        // not JSON: kept as text
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T);
      if (xhr.status === 401 && token) sessionLost();
      reject(new ApiError('http', xhr.status, normaliseErrorBody(xhr.status, data)));
    };
    const form = new FormData();
    form.append('file', file, name);
    xhr.send(form);
  });
}
