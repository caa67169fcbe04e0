import { z } from 'zod';

export const ErrorBodySchema = z
  .object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ErrorBody' });

export const ErrorResponseSchema = z.union([ErrorBodySchema, z.array(ErrorBodySchema)]);

/** Spec §9 paging: default page 1, size 10; page × size beyond 10000 is refused. */
export const PageQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(10000).default(10),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    total: z.number().int(),
    current_page: z.number().int(),
    page_size: z.number().int(),
    list: z.array(item),
  });
}

/**
 * A database id (a UUID column) in a path, query or body. Anything else is a 400 naming the field
 * before a query runs. Any 8-4-4-4-12 hex form PostgreSQL reads is accepted, whatever its version bits.
 */
export const UuidSchema = z.guid({ error: 'must be a UUID' });
export const IdParamSchema = z.object({ id: UuidSchema });
/** Path parameters of the tenant-scoped routes. */
export const TenantParamsSchema = z.object({ tenant_id: UuidSchema });
export const TenantIdParamsSchema = TenantParamsSchema.extend({ id: UuidSchema });
export const TenantThingParamsSchema = TenantParamsSchema.extend({ things_id: UuidSchema });
export const OkSchema = z.object({ ok: z.literal(true) });
