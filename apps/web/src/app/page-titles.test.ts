import { describe, expect, it } from 'vitest';
import { resources } from '../i18n/catalogues.ts';
import { breadcrumbOf, containerPath, PAGE_TITLES, titleKeyOf } from './page-titles.ts';
import { CONTAINER_ROUTES } from './routes.ts';

const routePaths = new Set(CONTAINER_ROUTES.map((r) => r.path).filter((p): p is string => !!p && p !== '*'));

describe('page titles and breadcrumbs', () => {
  it('name only pages that exist, and lead back to pages that exist', () => {
    for (const [path, { parent }] of Object.entries(PAGE_TITLES)) {
      expect(routePaths, path).toContain(path);
      if (parent) expect(routePaths, `${path} → ${parent}`).toContain(parent);
    }
  });

  it('have a name in both languages for every console page', () => {
    for (const path of routePaths) {
      const route = CONTAINER_ROUTES.find((r) => r.path === path);
      if (route?.loader) continue; // an old address that forwards elsewhere
      const key = titleKeyOf(path, (route?.handle as { menu?: never } | undefined)?.menu);
      expect(key, path).not.toBeNull();
      expect(resources.zh[key as string], `${path} zh`).toBeTruthy();
      expect(resources.en[key as string], `${path} en`).toBeTruthy();
    }
  });

  it('lead from a nested page back to the page it is opened from', () => {
    expect(breadcrumbOf('HomePage/DeviceDetails')).toEqual(['HomePage', 'HomePage/DeviceDetails']);
    expect(breadcrumbOf('HandleWorkOrder')).toEqual(['WorkOrderList', 'HandleWorkOrder']);
    expect(breadcrumbOf('HomePage')).toEqual([]);
    expect(breadcrumbOf(null)).toEqual([]);
  });

  it('name a top page after its menu entry', () => {
    expect(titleKeyOf('DBCManager')).toBe('app.menu.dbc');
    expect(titleKeyOf('CarManager/CarDetails')).toBe('car.details.title');
    expect(containerPath('/Container/HomePage/DeviceDetails')).toBe('HomePage/DeviceDetails');
    expect(containerPath('/Login')).toBeNull();
  });
});
