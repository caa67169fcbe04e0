import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CanFrame } from '@loggerhead/can';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { type FileStore, LocalFileStore } from '../src/files/file-store.ts';
import { S3FileStore } from '../src/files/s3-store.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { startS3 } from './services.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

async function readAll(s: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of s) parts.push(Buffer.from(p));
  return Buffer.concat(parts);
}

let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3('loggerhead');
});
afterAll(async () => {
  await s3?.stop();
});

const kinds: [string, () => FileStore][] = [
  ['a local directory', () => new LocalFileStore(fs.mkdtempSync(path.join(os.tmpdir(), 'lh-files-')))],
  ['an S3 bucket', () => S3FileStore.connect({ ...s3.settings, prefix: `run-${Math.random().toString(36).slice(2)}` })],
];

describe.each(kinds)('the file store on %s', (_name, make) => {
  let store: FileStore;
  beforeAll(() => {
    store = make();
  });

  it('puts, reads, streams, sizes, lists and removes files', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) & 0xff));
    await store.put('a/b/one.bin', bytes);
    await store.put('a/two.txt', Buffer.from('two'));
    expect(await store.get('a/b/one.bin')).toEqual(bytes);
    expect(await store.size('a/b/one.bin')).toBe(70_000);
    const opened = await store.open('a/b/one.bin');
    expect(opened?.size).toBe(70_000);
    expect(await readAll(opened?.stream as Readable)).toEqual(bytes);
    expect((await store.list('a')).sort()).toEqual(['a/b/one.bin', 'a/two.txt']);
    expect(await store.list('nothing-here')).toEqual([]);
    await store.remove('a/b/one.bin');
    await store.remove('a/b/one.bin'); // removing what is not there is no error
    expect(await store.get('a/b/one.bin')).toBeNull();
    expect(await store.open('a/b/one.bin')).toBeNull();
    expect(await store.size('a/b/one.bin')).toBeNull();
    expect(await store.list('a')).toEqual(['a/two.txt']);
  });

  it('keeps a module under its own folder key', async () => {
    const fw = store.under('firmware');
    await fw.put('x.bin', Buffer.from('image'));
    expect(await store.get('firmware/x.bin')).toEqual(Buffer.from('image'));
    expect(await store.list('firmware')).toEqual(['firmware/x.bin']);
  });

  it('refuses keys that climb out of the store', async () => {
    for (const bad of ['../x', 'a/../../x', '/etc/passwd']) await expect(store.put(bad, Buffer.from('no'))).rejects.toThrow(/bad file key/);
  });

  it('shows a file written in pieces only when it is closed, with its patch at an offset', async () => {
    const w = await store.create('exports/e.bin');
    await w.write(Buffer.from('----body'));
    await w.write('-tail');
    expect(await store.get('exports/e.bin')).toBeNull();
    await w.writeAt(Buffer.from('HEAD'), 0);
    await w.close();
    expect((await store.get('exports/e.bin'))?.toString()).toBe('HEADbody-tail');
    // An aborted file leaves no trace, and an older file under the key stays.
    const again = await store.create('exports/e.bin');
    await again.write(Buffer.from('half'));
    await again.abort();
    expect((await store.get('exports/e.bin'))?.toString()).toBe('HEADbody-tail');
    expect(await store.list('exports')).toEqual(['exports/e.bin']);
  });

  it('joins a file received in parts, in order', async () => {
    const key = 'recall/t1/.parts/task.part';
    expect(await store.partsSize(key)).toBe(0);
    expect(await store.readParts(key)).toBeNull();
    const pieces = [Buffer.from('first;'), Buffer.alloc(12_345, 7), Buffer.from(';last')];
    let offset = 0;
    for (const p of pieces) {
      expect(await store.partsSize(key)).toBe(offset);
      await store.appendPart(key, offset, p);
      offset += p.length;
    }
    expect(await store.partsSize(key)).toBe(offset);
    expect(await store.readParts(key)).toEqual(Buffer.concat(pieces));
    await store.removeParts(key);
    expect(await store.partsSize(key)).toBe(0);
  });
});

describe('two server copies on one S3 bucket', () => {
  let shared: { database: Database; drop: () => Promise<void> };
  const dirs: string[] = [];
  let a: TestApp;
  let b: TestApp;

  async function copy(): Promise<TestApp> {
    // Each copy has its own DATA_DIR: nothing is shared but the database and the bucket.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-copy-'));
    dirs.push(dataDir);
    const config = testConfig({ dataDir, s3: { ...s3.settings, prefix: 'deployment-1' } });
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    return { app, config, database: shared.database, close: () => app.close() };
  }

  beforeAll(async () => {
    shared = await openTestDatabase();
    a = await copy();
    b = await copy();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('downloads from copy B an export made on copy A', async () => {
    const tenant = await makeTenant(a);
    const dev = await makeDevice(a, tenant);
    const T0 = (Math.floor(Date.now() / 3_600_000) - 24) * 3_600_000_000;
    const src: CanFrame[] = Array.from({ length: 300 }, (_, i) => ({
      ts: T0 + i * 1000,
      channel: 0,
      id: 0x100 + (i % 16),
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array([i & 0xff, (i >> 8) & 0xff, 1, 2]),
    }));
    const boundary = '----lhfiles';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="trip.log"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(writeLog(src, 'candump')),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const base = `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${dev.id}`;
    const up = await a.app.inject({
      method: 'POST',
      url: `${base}/uploads`,
      headers: { authorization: tenant.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(up.statusCode).toBe(200);
    const created = await a.app.inject({
      method: 'POST',
      url: `${base}/downloads`,
      headers: { authorization: tenant.auth },
      payload: { begin_time: Math.floor(T0 / 1000), end_time: Math.floor(T0 / 1000) + 400, format: 'csv' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    await poll(
      async () => (await a.app.inject({ method: 'GET', url: `${base}/downloads/${id}`, headers: { authorization: tenant.auth } })).json(),
      (s) => s.status === 3 || s.status === 7,
    );
    // Copy A's data directory holds no export: the file is in the bucket.
    expect(fs.existsSync(path.join(a.config.dataDir, 'files', 'exports'))).toBe(false);
    const file = await b.app.inject({ method: 'GET', url: `${base}/downloads/${id}/file`, headers: { authorization: tenant.auth } });
    expect(file.statusCode).toBe(200);
    const lines = file.body.trim().split('\n');
    expect(lines).toHaveLength(301);
    expect(lines[1].split(',')[0]).toBe(String(src[0].ts));
    expect(Number(file.headers['content-length'])).toBe(Buffer.byteLength(file.body));
    // The same bytes read from the bucket directly.
    const direct = S3FileStore.connect({ ...s3.settings, prefix: 'deployment-1' });
    const keys = await direct.list('files/exports');
    expect(keys).toHaveLength(1);
    expect((await direct.get(keys[0]))?.toString()).toBe(file.body);
    direct.close();
    // Removed on B, gone for A too.
    const del = await b.app.inject({ method: 'DELETE', url: `${base}/downloads/${id}`, headers: { authorization: tenant.auth } });
    expect(del.statusCode).toBe(204);
    const gone = await a.app.inject({ method: 'GET', url: `${base}/downloads/${id}/file`, headers: { authorization: tenant.auth } });
    expect(gone.statusCode).toBe(409);
  });

  it('serves from copy B an avatar stored through copy A', async () => {
    const tenant = await makeTenant(a);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const boundary = '----lhavatar';
    const res = await a.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/avatar',
      headers: { authorization: tenant.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json() as { avatar: string };
    const img = await b.app.inject({ method: 'GET', url: avatar });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload).toEqual(png);
  });
});

describe('a wrong bucket stops the start with the reason', () => {
  it('refuses to start on a bucket that does not exist', async () => {
    const { database, drop } = await openTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-copy-'));
    try {
      const app = await buildApp(testConfig({ dataDir, s3: { ...s3.settings, bucket: 'no-such-bucket' } }), { database, logger: false });
      await expect(app.ready()).rejects.toThrow(/bucket/i);
      await app.close().catch(() => {});
    } finally {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
