import { z } from 'zod';
import { UuidSchema } from './common.ts';

/** Spec §9: paging is refused when page × size exceeds 10000. */
export const MAX_PAGED_ENTRIES = 10_000;

const csvInts = (max: number) =>
  z
    .string()
    .regex(/^\s*(0x[0-9a-fA-F]+|\d+)(\s*,\s*(0x[0-9a-fA-F]+|\d+))*\s*$/, 'comma-separated numbers (decimal or 0x hex)')
    .transform((s) => s.split(',').map((v) => Number(v.trim())))
    .refine((a) => a.every((n) => n >= 0 && n <= max), `each value 0-${max}`);

/** History of raw frames (times in ms since the Unix epoch, as the spec's begin_time/end_time). */
export const FramesQuerySchema = z.object({
  begin_time: z.coerce.number().int().min(0),
  end_time: z.coerce.number().int().min(0),
  channels: csvInts(255).optional(),
  ids: csvInts(0x1fffffff).optional(),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGED_ENTRIES).default(10),
});
export type FramesQuery = z.infer<typeof FramesQuerySchema>;

/** One raw frame as the API returns it; `ts` in µs keeps the device's precision. */
export const FrameSchema = z.object({
  ts: z.number().int(),
  channel: z.number().int(),
  id: z.number().int(),
  ext: z.boolean(),
  fd: z.boolean(),
  brs: z.boolean(),
  esi: z.boolean(),
  rtr: z.boolean(),
  err: z.boolean(),
  tx: z.boolean(),
  dlc: z.number().int(),
  /** Payload as upper-case hex without separators. */
  data: z.string(),
});
export type FrameDto = z.infer<typeof FrameSchema>;

export const FramesPageSchema = z.object({
  total: z.number().int(),
  /** False when filters are set and the total is an upper bound (the exact count would read every chunk). */
  total_exact: z.boolean(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(FrameSchema),
});

export const EXPORT_FORMATS = ['candump', 'asc', 'blf', 'trc', 'mf4', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const DownloadCreateSchema = z.object({
  begin_time: z.number().int().min(0),
  end_time: z.number().int().min(0),
  format: z.enum(EXPORT_FORMATS),
  channels: z.array(z.number().int().min(0).max(255)).max(64).optional(),
  ids: z.array(z.number().int().min(0).max(0x1fffffff)).max(64).optional(),
  /** An export plugin (decision 0160) writing each row of a CSV export in its own format; `format` must be `csv`. */
  plugin_id: UuidSchema.optional(),
});
export type DownloadCreate = z.infer<typeof DownloadCreateSchema>;

/** Spec §4 wire codes; 6 and 7 are ours (cancelled, failed). */
export const DownloadStatus = { initialising: 1, organising: 2, done: 3, querying: 4, generating: 5, cancelled: 6, failed: 7 } as const;

/** Spec §3 download progress. */
export const DownloadProgressSchema = z.object({
  id: z.string(),
  status: z.number().int(),
  process_rate: z.number().int(),
  data_count: z.number().int(),
  output_count: z.number().int(),
  data_bytes: z.number().int(),
  upload_bytes: z.number().int(),
  estimated_time: z.number().int(),
  format: z.enum(EXPORT_FORMATS),
  file_name: z.string().nullable(),
  error: z.string().nullable(),
});
export type DownloadProgress = z.infer<typeof DownloadProgressSchema>;

/** A line (text formats, 1-based) or object (binary formats, byte offset) of an uploaded log that was skipped. */
export const SkippedInputSchema = z.object({
  line: z.number().int().optional(),
  offset: z.number().int().optional(),
  reason: z.string(),
});

export const UploadResultSchema = z.object({
  frames: z.number().int(),
  chunks: z.number().int(),
  bytes: z.number().int(),
  begin_time: z.number().int().nullable(),
  end_time: z.number().int().nullable(),
  /** The format read (candump, asc, blf, trc …). */
  format: z.string(),
  /** The first skipped lines/objects (at most 100) … */
  skipped: z.array(SkippedInputSchema),
  /** … and how many were skipped in all. */
  skipped_count: z.number().int(),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;

/**
 * The console's one live channel, `/v1/live?token=…`: a browser tab opens one WebSocket and
 * multiplexes its subscriptions over it. Each `subscribe` names its own `id` (the tab's choice, unique
 * on the socket; subscribing an id again replaces that subscription, e.g. a new filter) and a `kind`:
 *
 * - `frames`: a device's raw trace, batched, at most one message per device every 100 ms; a frame in
 *   `f` is `[ts, channel, id, flags, hexData]`, flags bits as the device protocol (1 ext, 2 fd, 4 brs,
 *   8 esi, 16 rtr, 32 err, 64 tx); the device's online changes come as `status`.
 * - `signals`: decoded samples of a device's started DBC bindings (real-time curves): optionally only
 *   some channels and at most 10 `Message.Signal` names.
 * - `messages`: the caller's unread in-app messages (`unread` on every change).
 * - `remote`: a device's remote operations (`command`, `firmware`, `ecu-flash`).
 * - `test-runs`: the tenant's test runs (`run` on every state or progress change).
 *
 * Every subscription is authorised on its own (tenant scope, the kind's permission key, the device);
 * a refused one is answered `{t: "error", id, code, message}` and the others go on. Every message the
 * server sends for a subscription carries its `id`. The socket itself lives as long as its session.
 *
 * One unit of time on this socket, as in the rest of the API: ms since the Unix epoch, the device's
 * µs precision kept as the fraction (`Math.round(ts * 1000)` gives the µs back exactly) — frame
 * times in `f` and sample times in `signals` alike.
 */
const LiveSubId = z.string().min(1).max(64);
export const LiveSubscribeSchema = z.discriminatedUnion('kind', [
  z.object({
    op: z.literal('subscribe'),
    id: LiveSubId,
    kind: z.literal('frames'),
    things_id: z.string(),
    channels: z.array(z.number().int()).max(64).optional(),
    ids: z.array(z.number().int()).max(64).optional(),
  }),
  z.object({
    op: z.literal('subscribe'),
    id: LiveSubId,
    kind: z.literal('signals'),
    things_id: z.string(),
    channels: z.array(z.number().int().min(0).max(255)).max(64).optional(),
    signals: z.array(z.string().max(257)).max(10).optional(),
  }),
  z.object({ op: z.literal('subscribe'), id: LiveSubId, kind: z.literal('messages') }),
  z.object({ op: z.literal('subscribe'), id: LiveSubId, kind: z.literal('remote'), tenant_id: z.string(), things_id: z.string() }),
  z.object({ op: z.literal('subscribe'), id: LiveSubId, kind: z.literal('test-runs'), tenant_id: z.string() }),
]);
export type LiveSubscribe = z.infer<typeof LiveSubscribeSchema>;
export type LiveKind = LiveSubscribe['kind'];
export const LiveClientMessageSchema = z.union([LiveSubscribeSchema, z.object({ op: z.literal('unsubscribe'), id: LiveSubId })]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;
/** Subscriptions one socket may hold at once; one more is refused (`http.429`). */
export const LIVE_MAX_SUBSCRIPTIONS = 200;

/**
 * Decoded samples of one signal pushed live: times in ms since the epoch (µs precision kept as the
 * fraction, as every time on the socket), time-ordered. At most a few hundred per signal per push; when more were decoded they
 * are thinned to the minimum and maximum of equal slices (and the newest sample), and `thinned`
 * says how many were left out.
 */
export interface LiveSignalSamples {
  channel: number;
  /** `Message.Signal`. */
  signal: string;
  unit: string;
  t: number[];
  v: number[];
  thinned?: number;
}

/** `[ts (ms, µs as the fraction), channel, id, flags, hexData]`. */
export type LiveFrame = [number, number, number, number, string];

/** What the server sends on the live channel (each message of a subscription with its `id`). */
export type LiveServerMessage =
  | { t: 'frames'; id: string; things_id: string; f: LiveFrame[]; dropped?: number }
  | { t: 'subscribed'; id: string; kind: LiveKind; things_id?: string; tenant_id?: string }
  | { t: 'signals'; id: string; things_id: string; s: LiveSignalSamples[] }
  | { t: 'status'; id: string; things_id: string; online: boolean }
  /** `messages`: the caller's unread count, on every change. */
  | { t: 'unread'; id: string; unread: number }
  /** `remote`: a command's new state, an upgrade's state or progress, an ECU flashing step. */
  | { t: 'command'; id: string; command: unknown }
  | { t: 'firmware'; id: string; upgrade: unknown }
  | { t: 'ecu-flash'; id: string; job: unknown }
  /** `test-runs`: a run's new state or progress. */
  | { t: 'run'; id: string; run: unknown }
  /**
   * With `id`: that subscription was refused, or ended because what it reads can no longer be read
   * (`things_id` then names the device); the socket and its other subscriptions go on. Without `id`:
   * a message that is not understood, or the session's end right before the server closes the
   * socket (SocketClose).
   */
  | { t: 'error'; id?: string; code: string; message: string; things_id?: string };
