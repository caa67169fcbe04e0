import type { MenuKey } from '@loggerhead/contract/menus.ts';
import type { Privileges, SelfUser } from '@loggerhead/contract/schemas/session.ts';
import { describe, expect, it } from 'vitest';
import { landingPath, MENU_PATHS, menuOfPath, roleOf, TOP_MENU, visibleMenus } from './menus.ts';

const user = (over: Partial<SelfUser>): SelfUser => ({
  id: 'u1',
  tenant_id: 't1',
  name: 'n',
  username: 'n',
  nick_name: null,
  avatar: null,
  mobile: null,
  email: null,
  isManager: false,
  systemManager: false,
  ...over,
});
const privileges = (over: Partial<Privileges>): Privileges => ({
  tenant_manager: false,
  system_manager: false,
  apis: [],
  menus: [],
  ...over,
});

describe('roleOf', () => {
  it('tells the three roles apart and admits not knowing', () => {
    expect(roleOf(user({ systemManager: true }), null)).toBe('system-manager');
    expect(roleOf(null, privileges({ tenant_manager: true }))).toBe('manager');
    expect(roleOf(user({}), privileges({}))).toBe('sub-user');
    expect(roleOf(null, null)).toBe('unknown');
  });
});

describe('visibleMenus (spec §2)', () => {
  it('shows a sub-user only the entries bound to them', () => {
    const menus = visibleMenus({ role: 'sub-user', globalMenu: ['home', 'car', 'dbc'], boundMenus: ['home', 'ecu', 'oplog'] });
    expect([...menus].sort()).toEqual(['ecu', 'home', 'oplog']);
  });

  it('never shows a sub-user the manager-only entries, even when bound', () => {
    const menus = visibleMenus({ role: 'sub-user', globalMenu: null, boundMenus: ['home', 'subuser', 'system-setting'] });
    expect([...menus]).toEqual(['home']);
  });

  it('shows managers the top-menu entries of the global configuration', () => {
    const menus = visibleMenus({ role: 'manager', globalMenu: ['home', 'car'], boundMenus: [] });
    expect(menus.has('home')).toBe(true);
    expect(menus.has('car')).toBe(true);
    expect(menus.has('dbc')).toBe(false);
    expect(menus.has('subuser')).toBe(true);
    expect(menus.has('system-setting')).toBe(false);
  });

  it('shows the dashboard to managers by default and to sub-users bound to it', () => {
    const defaults = ['home', 'dashboard', 'car', 'dbc', 'test', 'ecu', 'fence'];
    expect(visibleMenus({ role: 'manager', globalMenu: defaults, boundMenus: [] }).has('dashboard')).toBe(true);
    expect(visibleMenus({ role: 'manager', globalMenu: ['home'], boundMenus: [] }).has('dashboard')).toBe(false);
    expect(visibleMenus({ role: 'sub-user', globalMenu: defaults, boundMenus: ['home'] }).has('dashboard')).toBe(false);
    expect(visibleMenus({ role: 'sub-user', globalMenu: defaults, boundMenus: ['dashboard'] }).has('dashboard')).toBe(true);
    expect(TOP_MENU).toContain('dashboard');
    expect(MENU_PATHS.dashboard).toBe('/Container/Dashboard');
  });

  it('keeps SystemSetting for system managers', () => {
    expect(visibleMenus({ role: 'system-manager', globalMenu: null, boundMenus: null }).has('system-setting')).toBe(true);
    expect(visibleMenus({ role: 'unknown', globalMenu: null, boundMenus: null }).has('system-setting')).toBe(false);
  });
});

describe('menuOfPath', () => {
  it('finds the top-menu entry of a page, sub-pages included', () => {
    expect(menuOfPath('/Container/HomePage/DeviceDetails')).toBe('home');
    expect(menuOfPath('/Container/DBCImportPage')).toBe('dbc');
    expect(menuOfPath('/Container/EFenceManager/EFenceEditor')).toBe('fence');
    expect(menuOfPath('/Container/UserManager/Log')).toBeNull();
    expect(menuOfPath('/Container/Dashboard')).toBe('dashboard');
  });
});

describe('where a user lands after login', () => {
  it('is the home page when the user has it', () => {
    expect(landingPath(new Set<MenuKey>(['car', 'home', 'subuser']))).toBe('/Container/HomePage');
  });
  it('is the first entry the header shows, top menu before the user menu, when the home page is not theirs', () => {
    expect(landingPath(new Set<MenuKey>(['oplog', 'ecu', 'car']))).toBe('/Container/CarManager');
    expect(landingPath(new Set<MenuKey>(['oplog', 'hmi']))).toBe('/Container/HmiManager');
  });
  it('is the user’s own HMI screens with no menu entry at all (an operator), not a 403 page', () => {
    expect(landingPath(new Set<MenuKey>())).toBe('/Container/MyHmi');
  });
});
