import type { MenuKey } from '@loggerhead/contract/menus.ts';
import { MENU_PATHS } from '../session/menus.ts';

/**
 * What each console page is called: the browser tab's title (`page - brand`, spec §1) and, for a
 * page opened from another one, the breadcrumb back to it (spec §2 widget). Keyed by the route's
 * path under `/Container/`. A page not listed here is named after its menu entry.
 */
export interface PageTitle {
  /** Message key of the page's name. */
  title: string;
  /** The page it is opened from (a path under `/Container/`): shown as a breadcrumb. */
  parent?: string;
}

export const PAGE_TITLES: Record<string, PageTitle> = {
  'HomePage/DeviceDetails': { title: 'device.details.title', parent: 'HomePage' },
  'CarManager/CarDetails': { title: 'car.details.title', parent: 'CarManager' },
  DBCImportPage: { title: 'dbc.import.title', parent: 'DBCManager' },
  EditTriggerRule: { title: 'trigger.edit.title', parent: 'HomePage' },
  HandleWorkOrder: { title: 'workorder.handle.title', parent: 'WorkOrderList' },
  WorkOrderDetail: { title: 'workorder.detail.title', parent: 'WorkOrderList' },
  DeviceTypeDetails: { title: 'app.title.deviceTypeDetails', parent: 'DeviceTypeList' },
  'EFenceManager/EFenceEditor': { title: 'efence.editor.title', parent: 'EFenceManager' },
  'UserManager/UserCenter': { title: 'app.menu.userCenter' },
  'UserManager/Orders': { title: 'app.menu.orders' },
  'HmiManager/HmiEditor': { title: 'hmi.editor.title', parent: 'HmiManager' },
  MyHmi: { title: 'app.menu.myHmi' },
};

/** The path under `/Container/` of a console address, or null outside the console. */
export function containerPath(pathname: string): string | null {
  const m = /^\/Container\/(.+?)\/?$/.exec(pathname);
  return m ? m[1] : null;
}

/** The menu entry whose page is exactly this one. */
function menuAt(path: string): MenuKey | undefined {
  return (Object.keys(MENU_PATHS) as MenuKey[]).find((k) => MENU_PATHS[k] === `/Container/${path}`);
}

/** A page's name key: its own entry, else its menu entry's, else none (the brand alone). */
export function titleKeyOf(path: string | null, menu?: MenuKey): string | null {
  if (path && PAGE_TITLES[path]) return PAGE_TITLES[path].title;
  const key = menu ?? (path ? menuAt(path) : undefined);
  return key ? `app.menu.${key}` : null;
}

/** The chain of pages from the first one down to `path` (itself last), following `parent`. */
export function breadcrumbOf(path: string | null): string[] {
  const chain: string[] = [];
  for (let p: string | undefined = path ?? undefined; p && !chain.includes(p); p = PAGE_TITLES[p]?.parent) chain.unshift(p);
  return chain.length > 1 ? chain : [];
}
