import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CanFrame, makeFrame } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import type { TestApp } from './helper.ts';
import type { TenantFixture } from './things.fixtures.ts';

/** Real DBC files (opendbc); not in this repository: OPENDBC_DIR or the folder beside the checkout. */
export const OPENDBC_DIR = process.env.OPENDBC_DIR ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared/data/opendbc');
export const TOYOTA = resolve(OPENDBC_DIR, 'toyota_nodsu_pt_generated.dbc');
export const hasToyota = existsSync(TOYOTA);

/**
 * A small DBC written for these tests: RAMP (0x100) carries a 16-bit unsigned value scaled by 0.5
 * with offset -10 and an 8-bit counter; WAVE (0x200) a signed 16-bit value scaled by 0.01.
 */
export const TEST_DBC = `VERSION ""

NS_ :

BS_:

BU_: ECU

BO_ 256 RAMP: 8 ECU
 SG_ Value : 0|16@1+ (0.5,-10) [-10|32757.5] "km/h" ECU
 SG_ Counter : 16|8@1+ (1,0) [0|255] "" ECU

BO_ 512 WAVE: 8 ECU
 SG_ Level : 0|16@1- (0.01,0) [-327.68|327.67] "V" ECU
`;

/** A multipart/form-data body with fields and one file. */
export function multipart(fields: Record<string, string>, file?: { name: string; content: string | Uint8Array }) {
  const boundary = `----lhtest${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function uploadDbc(
  t: TestApp,
  tenant: TenantFixture,
  name: string,
  content: string | Uint8Array,
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, { name, content });
  return t.app.inject({
    method: 'POST',
    url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/dbc-files`,
    headers: { authorization: tenant.auth, ...body.headers },
    payload: body.payload,
  });
}

/** Uploads TEST_DBC and returns its id. */
export async function testDbc(
  t: TestApp,
  tenant: TenantFixture,
  name = `test${Math.random().toString(36).slice(2, 8)}.dbc`,
): Promise<string> {
  const res = await uploadDbc(t, tenant, name, TEST_DBC);
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

export async function bind(
  t: TestApp,
  tenant: TenantFixture,
  thingsId: string,
  channel: number,
  body: { dbc_id?: string; strategy_id?: string; state?: 'started' | 'paused'; backfill?: { begin_time: number; end_time: number } },
) {
  return t.app.inject({
    method: 'PUT',
    url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/channels/${channel}/dbc-binding`,
    headers: { authorization: tenant.auth },
    payload: body,
  });
}

/** A TEST_DBC RAMP frame carrying raw Value `raw` (16 bits, Intel) and Counter `counter`. */
export function rampFrame(ts: number, raw: number, channel = 0, counter = 0): CanFrame {
  return makeFrame({ ts, channel, id: 0x100, data: new Uint8Array([raw & 0xff, (raw >> 8) & 0xff, counter & 0xff, 0, 0, 0, 0, 0]) });
}

/** A TEST_DBC WAVE frame carrying raw Level `raw` (signed 16 bits, Intel). */
export function waveFrame(ts: number, raw: number, channel = 0): CanFrame {
  const u = raw & 0xffff;
  return makeFrame({ ts, channel, id: 0x200, data: new Uint8Array([u & 0xff, u >> 8, 0, 0, 0, 0, 0, 0]) });
}

/** Stores frames as the ingest does (chunk writer commit) and waits until they are decoded. */
export async function ingestFrames(t: TestApp, tenantId: string, thingsId: string, frames: CanFrame[], seq: number) {
  const data = encodeBatch(frames, { session: 7, seq });
  const info = checkBatch(data);
  if (typeof info === 'string') throw new Error(info);
  await t.app.ctx.ingest.writer.write({ tenantId, thingsId, info, data });
  await t.app.ctx.signals.idle();
}
