import { describe, expect, it } from 'vitest';
import { permissionMapOf } from './permission-map.ts';

const base = { menus: [], apis: [{ name: 'things:things:query' }] };

describe('the stored permission map (spec §4, §6)', () => {
  it('is dropped for managers, who hold every key', () => {
    expect(permissionMapOf({ ...base, tenant_manager: true, system_manager: false })).toBeNull();
    expect(permissionMapOf({ ...base, tenant_manager: false, system_manager: true })).toBeNull();
  });

  it('lists a sub-user keys', () => {
    expect(permissionMapOf({ ...base, tenant_manager: false, system_manager: false })).toEqual({ 'things:things:query': true });
  });

  it('is kept for a read-only manager (the experience account), so its editing buttons are hidden', () => {
    expect(permissionMapOf({ ...base, tenant_manager: true, system_manager: false, read_only: true })).toEqual({
      'things:things:query': true,
    });
  });
});
