import fs from 'node:fs';
import path from 'node:path';

/**
 * Where generated and uploaded files live: a directory under DATA_DIR (an S3-compatible store
 * can implement the same surface). Keys are relative paths made by the server, never by users.
 */
export class LocalFileStore {
  constructor(readonly root: string) {}

  path(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`bad file key ${key}`);
    return p;
  }

  /** Opens a file for appending pieces (exports written in parts). */
  async create(key: string): Promise<fs.promises.FileHandle> {
    const p = this.path(key);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    return fs.promises.open(p, 'w');
  }

  stream(key: string): fs.ReadStream {
    return fs.createReadStream(this.path(key));
  }

  async size(key: string): Promise<number> {
    return (await fs.promises.stat(this.path(key))).size;
  }

  /** Keys of the files under a folder key, at any depth (none when it does not exist). */
  async list(prefix: string): Promise<string[]> {
    const entries = await fs.promises.readdir(this.path(prefix), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => path.relative(this.root, path.join(e.parentPath, e.name)));
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.path(key), { force: true });
  }
}
