import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import type { LoggerheadApp } from '../src/app.ts';
import type { TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, type TenantFixture } from './things.fixtures.ts';

export const brokerUrl = (t: TestApp) => `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;

/** A device registered through the API, and a simulated logger for it (not yet connected). */
export async function remoteDevice(t: TestApp, tenant: TenantFixture, extra: Record<string, unknown> = {}) {
  const d = await makeDevice(t, tenant, extra);
  const sim = new RemoteDevice({ broker: brokerUrl(t), deviceId: d.third_things_id, key: d.things_key });
  return { d, sim };
}

export async function isOnline(t: TestApp, thingsId: string) {
  const { rows } = await t.database.raw.query<{ is_online: boolean }>('select is_online from things where id = $1', [thingsId]);
  return rows[0]?.is_online === true;
}

/** Base path of a device's commands. */
export const messagesUrl = (tenant: TenantFixture, thingsId: string) => `/v1/things/tenants/${tenant.tenantId}/things/${thingsId}/messages`;

export async function issue(
  app: LoggerheadApp,
  tenant: TenantFixture,
  thingsId: string,
  body: Record<string, unknown>,
  auth = tenant.auth,
) {
  return app.inject({ method: 'POST', url: messagesUrl(tenant, thingsId), headers: { authorization: auth }, payload: body });
}

export async function getCommand(app: LoggerheadApp, tenant: TenantFixture, thingsId: string, correlationId: string) {
  const r = await app.inject({
    method: 'GET',
    url: `${messagesUrl(tenant, thingsId)}/${correlationId}`,
    headers: { authorization: tenant.auth },
  });
  return r.json();
}

/** Waits until the command reaches one of `states`. */
export function commandIn(
  app: LoggerheadApp,
  tenant: TenantFixture,
  thingsId: string,
  correlationId: string,
  states: string[],
  ms = 10_000,
) {
  return poll(
    () => getCommand(app, tenant, thingsId, correlationId),
    (c) => states.includes(c.state),
    { ms: ms },
  );
}

/** A multipart/form-data body with text fields and one file. */
export function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; field?: string }) {
  const boundary = '----lhremote';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Lets devices reach the test server over HTTP (recall uploads, firmware downloads). */
export async function listenForDevices(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  t.app.ctx.config.publicUrl = `http://127.0.0.1:${addr.port}`;
}
