import { z } from 'zod';

/** Spec §5: firmware version xx.xx.xx, 1-2 digits each. */
export const FIRMWARE_VERSION_RE = /^\d{1,2}\.\d{1,2}\.\d{1,2}$/;
export const versionNum = (v: string) => v.split('.').reduce((n, p) => n * 100 + Number(p), 0);

export const FirmwareUploadFieldsSchema = z.object({
  version: z.string().regex(FIRMWARE_VERSION_RE, 'version must be xx.xx.xx (1-2 digits each)'),
  model_id: z.string().uuid(),
  description: z.string().max(1000).optional(),
  type: z.enum(['self', 'outer']).default('self'),
  sub_dev_id: z.string().max(64).optional(),
});

export const FirmwareSchema = z.object({
  firmware_id: z.string(),
  tenant_id: z.string(),
  version: z.string(),
  version_num: z.number().int(),
  model_id: z.string(),
  model_name: z.string(),
  description: z.string().nullable(),
  type: z.enum(['self', 'outer']),
  sub_dev_id: z.string().nullable(),
  file_name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  to_public: z.boolean(),
  created_at: z.number().int(),
});
export type Firmware = z.infer<typeof FirmwareSchema>;

export const FirmwarePageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(FirmwareSchema),
});

export const UPGRADE_STATES = ['scheduled', 'idle', 'busy', 'invalid', 'flash success', 'flash failed', 'cancelled'] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export const MAX_UPGRADE_DEVICES = 1000;

export const UpgradeNotifySchema = z
  .object({
    /** The devices to upgrade; or `group_id`. */
    things_ids: z.array(z.string().uuid()).min(1).max(MAX_UPGRADE_DEVICES).optional(),
    /**
     * A device group instead of `things_ids`: every member the caller may see gets a result; those
     * it may only read are answered `http.403` and not upgraded (at most MAX_UPGRADE_DEVICES).
     */
    group_id: z.string().uuid().optional(),
    /** Scheduled time (ms since the epoch); absent = now. */
    at: z.number().int().min(0).optional(),
    type: z.enum(['self', 'outer']).default('self'),
  })
  .superRefine((b, ctx) => {
    if (!b.things_ids === !b.group_id)
      ctx.addIssue({ code: 'custom', path: ['things_ids'], message: 'give either devices or a device group' });
  });

export const UpgradeSchema = z.object({
  id: z.string(),
  things_id: z.string(),
  firmware_id: z.string(),
  version: z.string(),
  state: z.enum(UPGRADE_STATES),
  progress: z.number().int(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  scheduled_at: z.number().int().nullable(),
  started_at: z.number().int().nullable(),
  finished_at: z.number().int().nullable(),
  created_at: z.number().int(),
});
export type Upgrade = z.infer<typeof UpgradeSchema>;

export const UpgradeNotifyResultSchema = z.object({
  results: z.array(
    z.object({ things_id: z.string(), upgrade: UpgradeSchema.nullable(), code: z.string().nullable(), message: z.string().nullable() }),
  ),
});
