import { z } from 'zod';
import { MENU_KEYS } from '../menus.ts';
import { UuidSchema } from './common.ts';

/**
 * A tenant role (spec §6 control:tenant-role): a named bundle of permission keys and menus that the
 * tenant manager assigns to sub-users. A sub-user holds its own grants and menus and those of its roles.
 */
export const RoleInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).optional().nullable(),
  /** Permission keys a manager may grant to a sub-user (GRANTABLE_KEYS); anything else is `role.bad-key`. */
  keys: z.array(z.string().max(128)).max(500).default([]),
  /** Menu entries a sub-user may be bound to; manager-only ones are `role.bad-menu`. */
  menus: z.array(z.enum(MENU_KEYS)).max(64).default([]),
});
export type RoleInput = z.input<typeof RoleInputSchema>;

export const RoleSchema = z.object({
  id: z.string(),
  /** Null for a common role (defined by the system manager for every tenant). */
  tenant_id: z.string().nullable(),
  /** A common role: every tenant may give it to its sub-users; only the system manager changes it. */
  common: z.boolean(),
  name: z.string(),
  description: z.string().nullable(),
  keys: z.array(z.string()),
  menus: z.array(z.string()),
  /** Sub-users holding the role (of the caller's tenant; of every tenant for the system manager's list of common roles). */
  user_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Role = z.infer<typeof RoleSchema>;

export const RoleListSchema = z.object({ list: z.array(RoleSchema), total: z.number().int() });

/** The roles of one sub-user (replaces them all). */
export const UserRolesSchema = z.object({ role_ids: z.array(UuidSchema).max(50) });
export type UserRoles = z.infer<typeof UserRolesSchema>;

/** The top-menu entries the header shows to managers (spec §2 "others use the global menu config"). */
export const TOP_MENU_KEYS = [
  'home',
  'dashboard',
  'car',
  'dbc',
  'test',
  'ecu',
  'fence',
] as const satisfies readonly (typeof MENU_KEYS)[number][];

/** The global menu configuration (spec §3 global permission info `menu`), edited by the system manager. */
export const GlobalMenuSchema = z.object({
  /** Visible top-menu entries, in the header's order; at least the home page. */
  menu: z
    .array(z.enum(TOP_MENU_KEYS))
    .max(TOP_MENU_KEYS.length)
    .refine((m) => m.includes('home'), { message: 'the home page stays in the menu' }),
});
export type GlobalMenu = z.infer<typeof GlobalMenuSchema>;

/** One API (permission key) of the platform's catalogue and who may hold it (spec §3 `apis` objects with name). */
export const TenantApiSchema = z.object({
  name: z.string(),
  /** `tenant`: any holder the manager grants it to; `device-read` / `device-write`: also needs that access to the device. */
  scope: z.enum(['tenant', 'device-read', 'device-write']),
});
/** Spec §7 control tenant-apis: the APIs a tenant's roles and sub-users may be given. */
export const TenantApiListSchema = z.object({ list: z.array(TenantApiSchema), total: z.number().int() });

/** A user's privileges as its tenant manager sees them: its own grants and menus, its roles', and the union it holds. */
export const UserPrivilegesSchema = z.object({
  user_id: z.string(),
  tenant_manager: z.boolean(),
  /** The keys and menus the user holds on its next call (own ∪ roles; every key and menu for the manager). */
  apis: z.array(z.object({ name: z.string() })),
  menus: z.array(z.string()),
  /** The roles the holdings come from besides the user's own. */
  roles: z.array(z.object({ id: z.string(), name: z.string(), common: z.boolean() })),
});
export type UserPrivileges = z.infer<typeof UserPrivilegesSchema>;

/** Spec §7 control user menus: a sub-user's own menu bindings (its roles' come on top). */
export const UserMenusSchema = z.object({ menus: z.array(z.enum(MENU_KEYS)).max(64) });
export type UserMenus = z.infer<typeof UserMenusSchema>;
