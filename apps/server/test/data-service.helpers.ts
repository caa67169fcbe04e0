import type { CanFrame } from '@loggerhead/can';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import type { TestApp } from './helper.ts';
import { poll } from './poll.ts';
import type { TenantFixture } from './things.fixtures.ts';

/** Uploads frames to a device as a candump log (a multipart file). */
export async function upload(t: TestApp, tenant: TenantFixture, thingsId: string, frames: CanFrame[]) {
  const boundary = '----lhplugin';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="trip.log"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(writeLog(frames, 'candump')),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/uploads`,
    headers: { authorization: tenant.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
}

/** Runs an export to its end and answers its progress and file. */
export async function exportFile(t: TestApp, tenant: TenantFixture, thingsId: string, body: object) {
  const base = `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/downloads`;
  const created = await t.app.inject({ method: 'POST', url: base, headers: { authorization: tenant.auth }, payload: body });
  if (created.statusCode !== 200) return { created: created.json(), progress: null, file: null };
  const id = created.json().id as string;
  const progress = await poll(
    async () => (await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: { authorization: tenant.auth } })).json(),
    (s) => s.status === 3 || s.status === 7,
  );
  const file =
    progress.status === 3
      ? await t.app.inject({ method: 'GET', url: `${base}/${id}/file`, headers: { authorization: tenant.auth } })
      : null;
  return { created: created.json(), progress, file };
}
