import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Projects (spec §1, §7): a project holds devices, groups, vehicles and sub-users. A sub-user who is
 * a member of a project sees only its projects' devices (those held directly, those of its groups,
 * those bound to its vehicles), at the access of its membership.
 */
export const ProjectSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Devices held directly. */
  things_count: z.number().int(),
  group_count: z.number().int(),
  vehicle_count: z.number().int(),
  user_count: z.number().int(),
  /** Every device of the project: direct, through its groups and through its vehicles. */
  device_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).nullable().optional(),
});
export type ProjectInput = z.infer<typeof ProjectInputSchema>;

export const ProjectQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  keyword: z.string().max(64).optional(),
});
export const ProjectPageSchema = pageOf(ProjectSchema);

/** A device of the project; `direct` when held by the project itself, not only through a group or vehicle. */
export const ProjectDeviceSchema = z.object({
  things_id: z.string(),
  third_things_id: z.string(),
  name: z.string(),
  is_online: z.boolean(),
  direct: z.boolean(),
});
export const ProjectDevicePageSchema = pageOf(ProjectDeviceSchema);

export const ProjectMemberUserSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  name: z.string().nullable(),
  access: z.enum(['read', 'write']),
});

/** The groups, vehicles and sub-users a project holds (its devices are paged apart). */
export const ProjectMembersSchema = z.object({
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  vehicles: z.array(z.object({ id: z.string(), name: z.string() })),
  users: z.array(ProjectMemberUserSchema),
});
export type ProjectMembers = z.infer<typeof ProjectMembersSchema>;

/** Most members of one kind one bind or unbind call names. */
export const MAX_PROJECT_BIND = 1000;
const ids = z.array(UuidSchema).max(MAX_PROJECT_BIND).optional();

export const ProjectBindSchema = z.object({
  things_ids: ids,
  group_ids: ids,
  vehicle_ids: ids,
  /** Sub-users and the access the project gives them to its devices. */
  users: z
    .array(z.object({ user_id: UuidSchema, access: z.enum(['read', 'write']) }))
    .max(MAX_PROJECT_BIND)
    .optional(),
});
export type ProjectBind = z.infer<typeof ProjectBindSchema>;

export const ProjectUnbindSchema = z.object({ things_ids: ids, group_ids: ids, vehicle_ids: ids, user_ids: ids });
export type ProjectUnbind = z.infer<typeof ProjectUnbindSchema>;

export const ProjectBindResultSchema = z.object({ changed: z.number().int() });
