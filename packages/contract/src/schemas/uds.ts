import { z } from 'zod';

const canAddress = z.union([
  z.number().int().min(0).max(0x1fffffff),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,8}$/, 'address must be hexadecimal')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

/** Spec §5 UDS: PDU hex bytes separated by spaces; fill byte 0x00-0xFF; RemoteStMin 0-127 ms; timeouts 0-2147483647. */
export const UDS_PDU_RE = /^[0-9a-fA-F]{2}( [0-9a-fA-F]{2})*$/;
const timeout = z.number().int().min(0).max(2_147_483_647);

/** Transport settings of spec §3 "UDS/ECU upgrade": channel, fill byte, time-outs, addresses, CAN FD. */
export const UdsTransportSchema = z
  .object({
    channel: z.number().int().min(0).max(15).default(0),
    /** An ECU of the tenant gives the addresses; explicit addresses override. */
    ecu_id: z.string().uuid().optional(),
    request_address: canAddress.optional(),
    response_address: canAddress.optional(),
    frame_type: z.enum(['standard', 'extended']).optional(),
    fd: z.boolean().default(false),
    fill_byte: z.number().int().min(0).max(255).default(0xcc),
    st_min: z.number().int().min(0).max(127).default(0),
    flow_control_timeout_ms: timeout.default(1000),
    timeout_ms: timeout.default(1000),
    enhanced_timeout_ms: timeout.default(5000),
  })
  .superRefine((t, ctx) => {
    const max = t.frame_type === 'extended' ? 0x1fffffff : 0x7ff;
    for (const k of ['request_address', 'response_address'] as const) {
      const v = t[k];
      if (typeof v === 'number' && v > max)
        ctx.addIssue({ code: 'custom', path: [k], message: `${k} must be at most 0x${max.toString(16).toUpperCase()}` });
    }
    if (t.ecu_id === undefined && (t.request_address === undefined || t.response_address === undefined))
      ctx.addIssue({ code: 'custom', path: ['ecu_id'], message: 'give an ECU or both addresses' });
  });
export type UdsTransport = z.infer<typeof UdsTransportSchema>;

export const UdsRequestSchema = z.object({
  transport: UdsTransportSchema,
  pdu: z.string().trim().regex(UDS_PDU_RE, 'pdu must be hex bytes separated by spaces'),
});

export const UdsResultSchema = z.object({
  request: z.string(),
  response: z.string(),
  positive: z.boolean(),
  nrc: z.number().int().nullable(),
  nrc_name: z.string().nullable(),
  /** Response-pending answers the ECU sent before the final one. */
  pending: z.number().int(),
  correlation_id: z.string(),
});

export const DtcReadSchema = z.object({ transport: UdsTransportSchema, status_mask: z.number().int().min(0).max(255).default(0xff) });
export const DtcClearSchema = z.object({ transport: UdsTransportSchema, group: z.number().int().min(0).max(0xffffff).default(0xffffff) });
export const DtcListSchema = z.object({
  availability_mask: z.number().int(),
  dtcs: z.array(
    z.object({
      code: z.string(),
      hex: z.string(),
      name: z.string().nullable(),
      status: z.number().int(),
      status_names: z.array(z.string()),
    }),
  ),
});

export const EcuFlashRequestSchema = z.object({
  transport: UdsTransportSchema,
  /** Memory address the image is downloaded to. */
  address: z.number().int().min(0).max(0xffffffff).default(0),
  /** Firmware package to flash; the ECU's own package when absent. */
  firmware_file_id: z.string().uuid().optional(),
});
export const ECU_FLASH_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export const EcuFlashJobSchema = z.object({
  id: z.string(),
  things_id: z.string(),
  ecu_id: z.string(),
  channel: z.number().int(),
  state: z.enum(ECU_FLASH_STATES),
  step: z.string().nullable(),
  progress: z.number().int(),
  reason: z.string().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
