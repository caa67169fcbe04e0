import { z } from 'zod';

/** Spec §5: standard CAN ids at most 0x7FF, extended at most 0x1FFFFFFF. */
const canAddress = z.union([
  z.number().int().min(0).max(0x1fffffff),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,8}$/, 'address must be hexadecimal')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

export const ECU_FILE_TYPES = ['dtc', 'firmware', 'unlock'] as const;
export type EcuFileType = (typeof ECU_FILE_TYPES)[number];

const ecuFields = z.object({
  name: z.string().trim().min(1).max(64),
  physical_address: canAddress,
  response_address: canAddress,
  function_address: canAddress.nullable().optional(),
  frame_type: z.enum(['standard', 'extended']).default('standard'),
  dtc_file_id: z.string().uuid().nullable().optional(),
  firmware_file_id: z.string().uuid().nullable().optional(),
  unlock_file_id: z.string().uuid().nullable().optional(),
});

function checkAddresses(
  e: { frame_type?: string; physical_address?: number; response_address?: number; function_address?: number | null },
  ctx: z.RefinementCtx,
) {
  const max = e.frame_type === 'extended' ? 0x1fffffff : 0x7ff;
  for (const k of ['physical_address', 'response_address', 'function_address'] as const) {
    const v = e[k];
    if (typeof v === 'number' && v > max)
      ctx.addIssue({
        code: 'custom',
        path: [k],
        message: `${k} must be at most 0x${max.toString(16).toUpperCase()} for ${e.frame_type ?? 'standard'} frames`,
      });
  }
}

export const EcuCreateSchema = ecuFields.superRefine(checkAddresses);
export const EcuUpdateSchema = ecuFields.partial().superRefine(checkAddresses);
export type EcuCreate = z.infer<typeof EcuCreateSchema>;

export const EcuSchema = z.object({
  id: z.string(),
  name: z.string(),
  physical_address: z.number().int(),
  response_address: z.number().int(),
  function_address: z.number().int().nullable(),
  frame_type: z.enum(['standard', 'extended']),
  dtc_file_id: z.string().nullable(),
  dtc_file_name: z.string().nullable(),
  firmware_file_id: z.string().nullable(),
  firmware_file_name: z.string().nullable(),
  unlock_file_id: z.string().nullable(),
  unlock_file_name: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Ecu = z.infer<typeof EcuSchema>;

export const EcuFileSchema = z.object({
  id: z.string(),
  type: z.enum(ECU_FILE_TYPES),
  name: z.string(),
  file_name: z.string(),
  size: z.number().int(),
  md5: z.string(),
  /** dtc: number of fault codes. */
  entries: z.number().int().nullable(),
  created_at: z.number().int(),
});

/** Spec §3 fault-code file: fault code and its display name. */
export const FaultCodeSchema = z.object({ code: z.string().min(1).max(16), name: z.string().min(1).max(256) });
export type FaultCode = z.infer<typeof FaultCodeSchema>;

/** Largest ECU file accepted (fault-code lists, unlock files, firmware packages). */
export const MAX_ECU_FILE_BYTES = 32 * 1024 * 1024;
