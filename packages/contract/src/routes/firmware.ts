import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import { FirmwarePageSchema, FirmwareSchema, UpgradeNotifyResultSchema, UpgradeNotifySchema, UpgradeSchema } from '../schemas/firmware.ts';
import { defineRoute } from './define.ts';

/** The firmware paths name the tenant `:tenantId` (spec §7), not `:tenant_id`. */
const FirmwareTenantParams = z.object({ tenantId: UuidSchema });
const base = '/out-firmware-mgmt/tenants/:tenantId';

/** Spec §7 firmware paths: management, public flag, description, upgrade notify; plus upgrade state and the device download. */
export const FirmwareRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${base}/firmwares`,
    params: FirmwareTenantParams,
    query: z.object({
      current_page: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(10),
      model_id: z.string().uuid().optional(),
      type: z.enum(['self', 'outer']).optional(),
    }),
    response: FirmwarePageSchema,
    permission: 'firmware:firmware:query',
  }),
  /** Body: a multipart form, the fields of `FirmwareUploadFieldsSchema` and the file. */
  upload: defineRoute({
    method: 'POST',
    path: `${base}/firmwares`,
    params: FirmwareTenantParams,
    response: FirmwareSchema,
    permission: 'firmware:firmware:upload',
  }),
  /** `ids`: comma-separated. Answers 204. */
  removeMany: defineRoute({
    method: 'DELETE',
    path: `${base}/firmwares`,
    params: FirmwareTenantParams,
    query: z.object({ ids: z.string().min(1).max(4000) }),
    permission: 'firmware:firmware:delete',
  }),
  /** Answers 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/firmwares/:id`,
    params: FirmwareTenantParams.extend({ id: UuidSchema }),
    permission: 'firmware:firmware:delete',
  }),
  setPublic: defineRoute({
    method: 'PUT',
    path: `${base}/firmwares/:id/:toPublic`,
    params: FirmwareTenantParams.extend({ id: UuidSchema, toPublic: z.enum(['true', 'false', '1', '0']) }),
    response: FirmwareSchema,
    permission: 'firmware:firmware:public',
  }),
  notify: defineRoute({
    method: 'POST',
    path: `${base}/firmwares/:model_id/:version/notify`,
    params: FirmwareTenantParams.extend({ model_id: UuidSchema, version: z.string().max(16) }),
    body: UpgradeNotifySchema,
    response: UpgradeNotifyResultSchema,
    permission: 'firmware:firmware:notify-upgrade',
  }),
  describe: defineRoute({
    method: 'GET',
    path: '/firmware/:devtype/:version/desc',
    params: z.object({ devtype: z.string().max(64), version: z.string().max(16) }),
    response: z.object({ version: z.string(), model_id: z.string(), description: z.string() }),
    permission: 'firmware:firmware:get-desc',
  }),
  upgrades: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/upgrades`,
    params: FirmwareTenantParams.extend({ things_id: UuidSchema }),
    response: z.array(UpgradeSchema),
    permission: 'things:things:queryone',
  }),
  cancelUpgrade: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/upgrades/:id/cancel`,
    params: FirmwareTenantParams.extend({ things_id: UuidSchema, id: UuidSchema }),
    response: UpgradeSchema,
    permission: 'firmware:firmware:notify-upgrade',
  }),
  /**
   * The device fetches the image with the one-time token of its running upgrade and its proof of it
   * (header X-Device-Proof) — a file, no JSON.
   */
  download: defineRoute({
    method: 'GET',
    path: '/out-firmware-mgmt/download/:token',
    params: z.object({ token: z.string().regex(/^[0-9a-f]{48}$/) }),
    public: true,
  }),
};
