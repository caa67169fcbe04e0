import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where generated and uploaded files live — exports, recalled SD-card files, firmware and ECU
 * images, work-order images, avatars — behind one surface with two implementations: a directory
 * (DATA_DIR, the embedded default) and an S3-compatible bucket (`S3_BUCKET`, shared by every server
 * copy; s3-store.ts). Keys are relative paths made by the server, never by users.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** The same store with every key under `prefix/`. */
  under(prefix: string): FileStore;
  /** Writes a whole file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The whole file, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The file as a stream with its size, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** Keys (relative to this store) of the files under a folder key, at any depth. */
  list(prefix: string): Promise<string[]>;
  /** Removes a file; nothing happens when there is none. */
  remove(key: string): Promise<void>;
  /**
   * A file written in pieces, and patched at an offset before it is closed (an MF4 header written
   * last): it appears under `key` when closed, not before.
   */
  create(key: string): Promise<FileWriter>;
  /**
   * Files received in parts (resumable device uploads): `appendPart` adds the piece that starts at
   * `offset` (the caller checked it equals `partsSize`); the parts may arrive at different server
   * copies.
   */
  appendPart(key: string, offset: number, bytes: Uint8Array): Promise<void>;
  /** Bytes received so far under a parts key (0 when none). */
  partsSize(key: string): Promise<number>;
  /** The parts joined in order, or null when none were received. */
  readParts(key: string): Promise<Buffer | null>;
  removeParts(key: string): Promise<void>;
}

export interface FileWriter {
  write(data: Uint8Array | string): Promise<void>;
  /** Overwrites bytes at `position` of what was written. */
  writeAt(data: Uint8Array, position: number): Promise<void>;
  /** Finishes the file: from now on it can be read under its key. */
  close(): Promise<void>;
  /** Drops what was written; the key is left as it was. */
  abort(): Promise<void>;
}

/** A writer on a local file (the local store's files, and the S3 store's staging copy). */
export async function localWriter(file: string, onClose?: () => Promise<void>, onAbort?: () => Promise<void>): Promise<FileWriter> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const fh = await fs.promises.open(file, 'w');
  let open = true;
  const shut = async () => {
    if (open) {
      open = false;
      await fh.close();
    }
  };
  return {
    async write(data) {
      if (typeof data === 'string') await fh.write(data);
      else await fh.write(data);
    },
    async writeAt(data, position) {
      await fh.write(data, 0, data.length, position);
    },
    async close() {
      await shut();
      await onClose?.();
    },
    async abort() {
      await shut();
      await fs.promises.rm(file, { force: true });
      await onAbort?.();
    },
  };
}

/** Joins `a/b` key parts, refusing empty, absolute and `..` parts. */
export function joinKey(prefix: string, key: string): string {
  const k = prefix ? `${prefix}/${key}` : key;
  if (!k || k.startsWith('/') || k.split('/').some((p) => p === '..' || p === '' || p === '.')) throw new Error(`bad file key ${k}`);
  return k;
}

/** Files in a directory (DATA_DIR by default). A file is written under a temporary name and renamed when closed. */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {}

  under(prefix: string): FileStore {
    return new LocalFileStore(this.path(prefix));
  }

  path(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`bad file key ${key}`);
    return p;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const p = this.path(key);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    const tmp = `${p}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(tmp, bytes);
    await fs.promises.rename(tmp, p);
  }

  async get(key: string): Promise<Buffer | null> {
    return fs.promises.readFile(this.path(key)).catch(notFoundAsNull);
  }

  async open(key: string) {
    const p = this.path(key);
    const fh = await fs.promises.open(p, 'r').catch(notFoundAsNull);
    if (!fh) return null;
    const { size } = await fh.stat();
    return { stream: fh.createReadStream({ highWaterMark: 1 << 20 }) as Readable, size };
  }

  async size(key: string): Promise<number | null> {
    return (await fs.promises.stat(this.path(key)).catch(notFoundAsNull))?.size ?? null;
  }

  async list(prefix: string): Promise<string[]> {
    const entries = await fs.promises.readdir(this.path(prefix), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.path(key), { force: true });
  }

  async create(key: string): Promise<FileWriter> {
    const p = this.path(key);
    const tmp = `${p}.${process.pid}.${Date.now()}.tmp`;
    return localWriter(tmp, () => fs.promises.rename(tmp, p));
  }

  async appendPart(key: string, _offset: number, bytes: Uint8Array): Promise<void> {
    const p = this.path(key);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    await fs.promises.appendFile(p, bytes);
  }

  async partsSize(key: string): Promise<number> {
    return (await this.size(key)) ?? 0;
  }

  readParts(key: string): Promise<Buffer | null> {
    return this.get(key);
  }

  removeParts(key: string): Promise<void> {
    return this.remove(key);
  }
}

function notFoundAsNull(e: NodeJS.ErrnoException): null {
  if (e?.code === 'ENOENT') return null;
  throw e;
}

/** A private staging directory for files that are written locally before they go to a remote store. */
export function stagingDir(): string {
  return path.join(os.tmpdir(), `loggerhead-staging-${process.pid}`);
}
