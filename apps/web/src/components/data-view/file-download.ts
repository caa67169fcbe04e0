import { isAllowedByMap, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import { ApiError } from '../../api/api-error.ts';
import { buildUrl, type Query } from '../../api/client.ts';
import { getPermissionMap, getToken } from '../../api/session-storage.ts';

/** `attachment; filename="x.csv"` → `x.csv`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1] : fallback;
}

/**
 * A file behind the API (exports, CSV). Downloads need the bearer token, which a plain link
 * cannot send, so the file is fetched and handed to the browser as a blob.
 */
export async function fetchFile(
  path: string,
  opts: { query?: Query; permission?: PermissionKey; signal?: AbortSignal; fallbackName?: string } = {},
): Promise<{ blob: Blob; name: string }> {
  if (opts.permission && !isAllowedByMap(getPermissionMap(), opts.permission)) throw ApiError.forbiddenLocally();
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: opts.signal });
  } catch (e) {
    if (opts.signal?.aborted) throw ApiError.canceled();
    throw ApiError.noResponse(e instanceof Error ? e.message : String(e));
  }
  if (!res.ok) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {}
    const first = (Array.isArray(body) ? body[0] : body) as { code?: string; message?: string } | undefined;
    throw new ApiError('http', res.status, [{ code: first?.code ?? `http.${res.status}`, message: first?.message ?? res.statusText }]);
  }
  return { blob: await res.blob(), name: fileNameOf(res.headers.get('content-disposition'), opts.fallbackName ?? 'download') };
}

/** Hands a blob to the browser's download manager under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start reading the blob only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
