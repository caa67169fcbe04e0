import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Tenant API keys for machines (docs/decisions/0138-api-keys.md): sent as `Authorization: Bearer
 * lhk_…` on `/v1`, with the key's permission keys (at most its creator's) and optional device scope.
 */
export const API_KEY_PREFIX = 'lhk_';

export const ApiKeyInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  /** Permission keys the key may use: keys a sub-user may be granted, held by its creator. */
  permissions: z.array(z.string().max(128)).min(1).max(300),
  /** The devices it may reach; absent or null: every device its creator can reach. */
  things_ids: z.array(UuidSchema).min(1).max(1000).nullable().optional(),
  /** ms since the epoch; absent or null: it does not expire. */
  expires_at: z.number().int().min(0).nullable().optional(),
});
export type ApiKeyInput = z.infer<typeof ApiKeyInputSchema>;

export const ApiKeySchema = z.object({
  id: UuidSchema,
  name: z.string(),
  /** The token's first characters, to tell keys apart; never the secret. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  things_ids: z.array(UuidSchema).nullable(),
  created_by: UuidSchema,
  created_by_name: z.string().nullable(),
  expires_at: z.number().nullable(),
  revoked_at: z.number().nullable(),
  last_used_at: z.number().nullable(),
  last_used_ip: z.string().nullable(),
  created_at: z.number(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The answer to a creation: the only time the secret token is shown. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ token: z.string() });

export const ApiKeyQuerySchema = PageQuerySchema.extend({ page_size: z.coerce.number().int().min(1).max(100).default(20) });
export const ApiKeyPageSchema = pageOf(ApiKeySchema);
