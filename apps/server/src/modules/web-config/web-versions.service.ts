import path from 'node:path';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { BadBundle, safePath, unpackTarGz } from './web-bundle.ts';
import type { WebVersionRow, WebVersionsRepository } from './web-versions.repository.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};
export const mimeOf = (file: string) => MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** How long a copy serves the release it knows before asking the database again. */
const RELEASE_TTL_MS = 2000;

/**
 * Console versions (spec §7 /out-web deploy/web): a built console uploaded as a .tar.gz is kept in
 * the file store under `web/<id>/`, so every server copy can serve it; releasing one makes every
 * copy serve it within seconds, without a restart; a rollback serves the one released before.
 */
export function webVersionsService(repo: WebVersionsRepository, store: FileStore) {
  const files = store.under('web');
  let cached: { id: string | null; at: number } | null = null;
  async function current(): Promise<string | null> {
    if (cached && Date.now() - cached.at < RELEASE_TTL_MS) return cached.id;
    cached = { id: await repo.current(), at: Date.now() };
    return cached.id;
  }
  const view = (r: WebVersionRow, cur: string | null) => ({
    id: r.id,
    version: r.version,
    description: r.description,
    file_count: r.file_count,
    bytes: Number(r.bytes),
    released: r.id === cur,
    created_at: new Date(r.created_at).getTime(),
  });
  async function found(id: string) {
    const r = await repo.get(id);
    if (!r) throw ApiError.of('web.version-not-found');
    return r;
  }
  async function dropFiles(id: string) {
    for (const k of await files.list(id)) await files.remove(k.startsWith(`${id}/`) ? k : `${id}/${k}`);
  }

  return {
    current,
    async list() {
      const cur = await repo.current();
      return (await repo.list()).map((r) => view(r, cur));
    },

    /** The version served now, or null (the console built with the server). */
    async info() {
      const cur = await repo.current();
      const r = cur ? await repo.get(cur) : null;
      return r ? view(r, cur) : null;
    },

    async save(auth: Auth, q: { version: string; description: string }, bundle: Buffer) {
      let unpacked: Map<string, Buffer>;
      try {
        unpacked = await unpackTarGz(bundle);
      } catch (e) {
        if (e instanceof BadBundle) throw ApiError.of('web.bad-bundle', `${ApiError.of('web.bad-bundle').message}: ${e.message}`);
        throw e;
      }
      let bytes = 0;
      for (const b of unpacked.values()) bytes += b.length;
      const id = await repo.insert({
        version: q.version,
        description: q.description,
        file_count: unpacked.size,
        bytes,
        by: auth,
      });
      if (!id) throw ApiError.of('web.version-exists');
      try {
        for (const [p, b] of unpacked) await files.put(`${id}/${p}`, b);
      } catch (e) {
        await dropFiles(id).catch(() => {});
        await repo.remove(id);
        throw e;
      }
      await repo.log('upload', q.version, auth);
      return view((await repo.get(id)) as WebVersionRow, await repo.current());
    },

    async release(auth: Auth, id: string) {
      const r = await found(id);
      await repo.release(id);
      cached = { id, at: Date.now() };
      await repo.log('release', r.version, auth);
      return view(r, id);
    },

    async rollback(auth: Auth) {
      const id = await repo.rollback();
      if (!id) throw ApiError.of('web.no-previous');
      cached = { id, at: Date.now() };
      const r = await found(id);
      await repo.log('rollback', r.version, auth);
      return view(r, id);
    },

    async remove(auth: Auth, id: string) {
      const r = await found(id);
      if ((await repo.current()) === id) throw ApiError.of('web.version-released');
      await dropFiles(id);
      await repo.remove(id);
      await repo.log('remove', r.version, auth);
    },

    async logs() {
      return (await repo.logs()).map((l) => ({ ...l, created_at: new Date(l.created_at).getTime() }));
    },

    /** A file of the released console, by its URL path; a page address without a file is the index. */
    async file(urlPath: string): Promise<{ id: string; rel: string; bytes: Buffer } | null | 'none'> {
      const id = await current();
      if (!id) return 'none';
      let rel: string;
      try {
        rel = safePath(decodeURIComponent(urlPath).replace(/^\/+/, '') || 'index.html');
      } catch {
        return null;
      }
      const bytes = await files.get(`${id}/${rel}`);
      if (bytes) return { id, rel, bytes };
      if (rel.startsWith('assets/') || path.extname(rel)) return null;
      const index = await files.get(`${id}/index.html`);
      return index ? { id, rel: 'index.html', bytes: index } : null;
    },
  };
}
export type WebVersionsService = ReturnType<typeof webVersionsService>;
