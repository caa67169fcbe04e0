import { createHash, type KeyObject, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { BadBundle, safePath, unpackTarGz } from './web-bundle.ts';
import { lineDiff } from './web-index-diff.ts';
import type { WebFile, WebVersionRow, WebVersionsRepository } from './web-versions.repository.ts';

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

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The deploy log's name for the console built with the server. */
const BUILT_IN = '(built-in)';

/** How long a copy serves the release it knows before asking the database again. */
const RELEASE_TTL_MS = 2000;

/**
 * Whoever changes what the console's origin serves holds every session opened there: releasing,
 * rolling back, serving the built console again and removing the served version are a system
 * manager's, in a session of its own (not a web-deploy user, an API key or a super-session).
 */
function releaser(auth: Auth): Auth {
  if (auth.webDeploy || auth.apiKey || auth.superSession || !auth.systemManager) throw ApiError.of('web.manager-only');
  return auth;
}

export interface WebVersionsDeps {
  repo: WebVersionsRepository;
  store: FileStore;
  /** The caller's own password, entered again (`auth.password-error` when wrong; counts toward the lock-out). */
  reauth: (auth: Auth, password: string) => Promise<void>;
  /** The console built with the server (its index.html is what a release is compared with while it is served). */
  webDir: string | null;
  /** WEB_BUNDLE_PUBLIC_KEY: when set, only bundles with a matching Ed25519 signature are accepted. */
  publicKey: KeyObject | null;
}

/**
 * Console versions (spec §7 /out-web deploy/web, docs/decisions/0206-console-release-by-a-system-manager.md):
 * a built console uploaded as a .tar.gz is kept in the file store under `web/<id>/`, so every server
 * copy can serve it. Uploading stages it; only a system manager releases it, entering the password
 * again after seeing its files and what changes in index.html. Every copy serves a release within
 * seconds, without a restart; a rollback serves the one released before, or the built console.
 */
export function webVersionsService(deps: WebVersionsDeps) {
  const { repo } = deps;
  const files = deps.store.under('web');
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
  /** The SHA-256 of each file served now (a released version's manifest, or the built console's files); null when unknown. */
  async function servedDigests(served: WebVersionRow | null): Promise<Map<string, string> | null> {
    if (served) return served.manifest ? new Map(served.manifest.map((f) => [f.path, f.sha256])) : null;
    if (!deps.webDir) return null;
    const root = deps.webDir;
    const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true }).catch(() => null);
    if (!entries) return null;
    const out = new Map<string, string>();
    for (const e of entries) {
      if (!e.isFile()) continue;
      const full = path.join(e.parentPath, e.name);
      out.set(path.relative(root, full).split(path.sep).join('/'), sha256(await fs.promises.readFile(full)));
    }
    return out;
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

    async save(auth: Auth, q: { version: string; description: string }, bundle: Buffer, signature: string | undefined) {
      if (deps.publicKey) {
        const sig = signature ? Buffer.from(signature.trim(), 'base64') : Buffer.alloc(0);
        if (sig.length !== 64 || !verify(null, bundle, deps.publicKey, sig))
          throw ApiError.of('web.bad-signature', undefined, { field: 'signature' });
      }
      let unpacked: Map<string, Buffer>;
      try {
        unpacked = await unpackTarGz(bundle);
      } catch (e) {
        if (e instanceof BadBundle) throw ApiError.of('web.bad-bundle', `${ApiError.of('web.bad-bundle').message}: ${e.message}`);
        throw e;
      }
      let bytes = 0;
      const manifest: WebFile[] = [];
      for (const [p, b] of unpacked) {
        bytes += b.length;
        manifest.push({ path: p, bytes: b.length, sha256: sha256(b) });
      }
      manifest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const id = await repo.insert({
        version: q.version,
        description: q.description,
        file_count: unpacked.size,
        bytes,
        manifest,
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

    /**
     * What a release of this version would serve: its files, who uploaded it, and its index.html
     * against the one served now, line by line.
     */
    async review(id: string) {
      const r = await found(id);
      const cur = await repo.current();
      const list: WebFile[] =
        r.manifest ??
        (await files.list(id)).map((k) => ({ path: k.startsWith(`${id}/`) ? k.slice(id.length + 1) : k, bytes: -1, sha256: '' }));
      const candidate = ((await files.get(`${id}/index.html`)) ?? Buffer.alloc(0)).toString('utf8');
      const served = cur ? await repo.get(cur) : null;
      const before = await servedDigests(served);
      const change = (f: WebFile): 'added' | 'changed' | 'same' | null =>
        !before || !f.sha256 ? null : !before.has(f.path) ? 'added' : before.get(f.path) === f.sha256 ? 'same' : 'changed';
      const servedIndex = served
        ? ((await files.get(`${served.id}/index.html`)) ?? Buffer.alloc(0)).toString('utf8')
        : deps.webDir
          ? await fs.promises.readFile(path.join(deps.webDir, 'index.html'), 'utf8').catch(() => '')
          : '';
      return {
        version: view(r, cur),
        uploaded_by: await repo.uploader(id),
        files: list.map((f) => ({ ...f, change: change(f) })),
        served: served ? { version: served.version } : null,
        index_diff: lineDiff(servedIndex, candidate),
      };
    },

    async release(auth: Auth, id: string, password: string) {
      releaser(auth);
      const r = await found(id);
      await deps.reauth(auth, password);
      await repo.release(id);
      cached = { id, at: Date.now() };
      await repo.log('release', r.version, auth);
      return view(r, id);
    },

    /** Serves the release before the current one again, or the console built with the server when there is none. */
    async rollback(auth: Auth) {
      releaser(auth);
      const back = await repo.rollback();
      if (!back) throw ApiError.of('web.no-previous');
      cached = { id: back.id, at: Date.now() };
      const r = back.id ? await found(back.id) : null;
      await repo.log('rollback', r?.version ?? BUILT_IN, auth);
      return r ? view(r, back.id) : null;
    },

    /** Serves the console built with the server from now on (one action, whatever was released). */
    async builtIn(auth: Auth) {
      releaser(auth);
      if ((await repo.current()) !== null) await repo.release(null);
      cached = { id: null, at: Date.now() };
      await repo.log('built-in', BUILT_IN, auth);
    },

    /** Removes a version; removing the served one (a system manager's) serves the console built with the server. */
    async remove(auth: Auth, id: string) {
      const r = await found(id);
      if ((await repo.current()) === id) {
        releaser(auth);
        await repo.release(null);
        cached = { id: null, at: Date.now() };
      }
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
