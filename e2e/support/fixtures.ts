import { randomBytes } from 'node:crypto';
import type { CanFrame } from '@loggerhead/can/frame.ts';
import { expect } from '@playwright/test';
import type { Api } from './api.ts';

/** A classic CAN frame on channel 0 with every flag off, but for what `f` sets. */
export function canFrame(f: Partial<CanFrame> & Pick<CanFrame, 'ts' | 'id' | 'data'>): CanFrame {
  return { channel: 0, ext: false, fd: false, brs: false, esi: false, rtr: false, err: false, tx: false, ...f };
}

const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

export interface RegisteredTenant {
  username: string;
  password: string;
  tenantId: string;
  mobile: string;
}

/**
 * A tenant registered through the public API as a user would, and approved by the system
 * manager (`adminApi`). No SMS provider in tests: the code waits in the push log, which the
 * system manager reads.
 */
export async function registerTenant(adminApi: Api, prefix: string): Promise<RegisteredTenant> {
  const mobile = `13${digits(9)}`;
  const username = `${prefix}_${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(4).toString('hex')}1`;
  await adminApi.post('/tenant/verification-codes', { type: 1, destination: mobile, purpose: 'register' });
  let code: string | undefined;
  await expect
    .poll(async () => {
      const logs = await adminApi.get<{ list: { text: string }[] }>(`/notification/push-logs?destination=${mobile}`);
      code = /\b(\d{6})\b/.exec(logs.list[0]?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  const created = await adminApi.post<{ tenant_id: string }>('/tenant/user-tenants', {
    mobile,
    mobile_verification_code: code,
    username,
    password,
    confirmPassword: password,
  });
  await adminApi.put(`/tenant/tenants/${created.tenant_id}/audit/1`, { notify: false });
  return { username, password, tenantId: created.tenant_id, mobile };
}
