/**
 * Compressed uploads are inflated one way (src/lib/inflate.ts): a stream in zlib's thread pool,
 * bounded. Every place that inflates what a user sends — log uploads (and the import of a recalled
 * log, which is the same service) and console bundles — answers a bomb 413 `upload.too-large` as
 * soon as the inflated bytes pass its limit, over a real connection (no reset, no hang), without
 * holding what it inflated, and stores nothing of it.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipLimited, gunzipToBuffer, InflatedTooLargeError } from '../src/lib/inflate.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const MB = 1024 * 1024;
const LINE = '(1700000000.000000) can0 123#0011223344556677 R\n';
/** One gzip member of `mb` MB of candump lines (a few KB compressed). */
const member = (mb: number, text = LINE) => gzipSync(Buffer.from(text.repeat(Math.ceil((mb * MB) / text.length))), { level: 9 });
/** `copies` members one after another: one gzip file (RFC 1952 allows several members) of copies × mb MB. */
const bomb = (mb: number, copies: number, text?: string) => {
  const m = member(mb, text);
  return Buffer.concat(Array.from({ length: copies }, () => m));
};

function form(name: string, bytes: Buffer, type = 'application/octet-stream') {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type }), name);
  return body;
}

/** Peak heap growth while `run` runs, sampled every 5 ms. */
async function peakHeapGrowth<T>(run: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 5);
  try {
    const value = await run();
    sample();
    return { value, growthMb: (peak - base) / MB };
  } finally {
    clearInterval(timer);
  }
}

describe('the one bounded inflater', () => {
  it('gives the bytes of a file within the limit, several members too', async () => {
    const a = Buffer.from('first member\n');
    const b = Buffer.from('second member\n');
    const out = await gunzipToBuffer(Buffer.concat([gzipSync(a), gzipSync(b)]), 1024);
    expect(out.toString()).toBe('first member\nsecond member\n');
  });

  it('stops reading the source as soon as the inflated bytes pass the limit', async () => {
    const m = member(4);
    let read = 0;
    async function* source() {
      for (let i = 0; i < 1000; i++) {
        read++;
        yield m;
      }
    }
    let inflated = 0;
    const go = async () => {
      for await (const c of gunzipLimited(source(), 10 * MB)) inflated += c.length;
    };
    await expect(go()).rejects.toBeInstanceOf(InflatedTooLargeError);
    // 10 MB are 3 members of 4 MB; zlib reads a little ahead, never the 1000 (4 GB).
    expect(read).toBeLessThan(10);
    expect(inflated).toBeLessThanOrEqual(10 * MB);
  });
});

describe('upload bombs over a real connection', () => {
  let t: TestApp;
  let a: TenantFixture;
  let base: string;
  let admin: string;
  beforeAll(async () => {
    // 16 MB uploads: a gzip log may inflate to 64 MB.
    t = await createTestApp({ maxUploadBytes: 16 * MB });
    a = await makeTenant(t);
    admin = await loginAdmin(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a gzip log inflating to 4 GB: 413 upload.too-large at the limit, nothing held, nothing stored', async () => {
    const d = await makeDevice(t, a);
    // 4 MB sent, 4 GB inflated (the limit is 64 MB).
    const gz = bomb(8, 500);
    expect(gz.length).toBeGreaterThan(3 * MB);
    expect(gz.length).toBeLessThan(16 * MB);
    const { value: res, growthMb } = await peakHeapGrowth(() =>
      fetch(`${base}/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/uploads`, {
        method: 'POST',
        headers: { authorization: a.auth },
        body: form('bomb.log.gz', gz),
        signal: AbortSignal.timeout(20_000),
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'upload.too-large', details: { limit_bytes: 64 * MB } });
    // 64 MB of candump parsed would be some 1.4 million frames (hundreds of MB of heap); the
    // bounded first pass only counts bytes.
    expect(growthMb).toBeLessThan(48);
    const { rows } = await t.database.raw.query<{ n: string }>('select count(*) as n from frame_chunks where things_id = $1', [d.id]);
    expect(Number(rows[0].n)).toBe(0);
    // The server goes on answering.
    expect((await fetch(`${base}/v1/health`)).status).toBe(200);
  });

  it('a log within the limit is still stored whole after the first, counting pass', async () => {
    const d = await makeDevice(t, a);
    const lines = Array.from({ length: 3000 }, (_, i) => `(1700000000.${String(i).padStart(6, '0')}) can0 123#00112233 R\n`).join('');
    const res = await fetch(`${base}/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/uploads`, {
      method: 'POST',
      headers: { authorization: a.auth },
      body: form('ok.log.gz', gzipSync(Buffer.from(lines))),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { frames: number }).frames).toBe(3000);
  });

  it('a console bundle inflating past 200 MB: 413 upload.too-large, no version kept', async () => {
    // 208 MB of zeros (a tar of nothing but zero blocks) in some 200 KB.
    const gz = bomb(8, 26, '\0'.repeat(4096));
    const res = await fetch(`${base}/v1/out-web/deploy/web/save?version=bomb-1`, {
      method: 'POST',
      headers: { authorization: admin },
      body: form('console.tar.gz', gz, 'application/gzip'),
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('upload.too-large');
    const list = await fetch(`${base}/v1/out-web/deploy/web/list`, { headers: { authorization: admin } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { version: string }[]).map((v) => v.version)).not.toContain('bomb-1');
  });
});
