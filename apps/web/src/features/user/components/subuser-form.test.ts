import { GRANTABLE_KEYS, permissionDef } from '@loggerhead/contract/permissions.ts';
import { describe, expect, it } from 'vitest';
import { GRANT_GROUPS, grantsForMenus, READ_PRESET, SUB_USER_MENUS, WRITE_PRESET } from '../../../components/roles/grants.ts';
import { initialPasswordOf, setAccess, withAccess } from './subuser-form.ts';

describe('sub-user form', () => {
  it('offers every menu but sub-user management and system setting', () => {
    expect(SUB_USER_MENUS).toContain('home');
    expect(SUB_USER_MENUS).toContain('oplog');
    expect(SUB_USER_MENUS).not.toContain('subuser');
    expect(SUB_USER_MENUS).not.toContain('system-setting');
  });

  it('groups exactly the grantable keys, each once', () => {
    const all = GRANT_GROUPS.flatMap((g) => g.keys);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...GRANTABLE_KEYS].sort());
  });

  it('makes the readable preset read-only and the read-write preset a superset', () => {
    expect(READ_PRESET.length).toBeGreaterThan(0);
    for (const k of READ_PRESET) expect(permissionDef(k)?.scope).toBe('device-read');
    expect(READ_PRESET.every((k) => WRITE_PRESET.includes(k))).toBe(true);
    expect(WRITE_PRESET).toContain('things:things:command');
    expect(READ_PRESET).not.toContain('things:things:command');
  });

  it('keeps each device level across picks and starts new devices readable', () => {
    const before = [
      { things_id: 'a', access: 'write' as const },
      { things_id: 'b', access: 'read' as const },
    ];
    expect(withAccess(['a', 'c'], before)).toEqual([
      { things_id: 'a', access: 'write' },
      { things_id: 'c', access: 'read' },
    ]);
    expect(setAccess(before, 'b', 'write')[1]).toEqual({ things_id: 'b', access: 'write' });
  });

  it('derives the initial password from the last 8 digits of the mobile', () => {
    expect(initialPasswordOf('13812345678')).toBe('12345678');
  });
});

describe('binding a menu', () => {
  it('adds the grants the menu needs to open, once, and only grantable ones', () => {
    const g = grantsForMenus(['things:things:page'], ['home', 'oplog']);
    expect(g).toContain('data-mgmt:op-log:query');
    expect(g.filter((k) => k === 'things:things:page')).toHaveLength(1);
    for (const k of grantsForMenus([], [...SUB_USER_MENUS])) expect(GRANTABLE_KEYS).toContain(k);
  });

  it('gives the Tests menu what its scripts, routines and runs tabs read', () => {
    expect(SUB_USER_MENUS).toContain('test');
    const g = grantsForMenus([], ['test']);
    for (const k of ['test-mgmt:script:query', 'test-mgmt:routine:query', 'test-mgmt:run:query', 'things:things:page'])
      expect(g).toContain(k);
    // reading only: starting, changing or deleting stays the manager's choice
    expect(g.filter((k) => !k.endsWith(':query') && !k.endsWith(':page'))).toEqual([]);
  });
});
