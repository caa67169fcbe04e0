import { z } from 'zod';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['up', 'down']),
  broker: z.enum(['up', 'down']),
  /**
   * With `MQTT_DYNSEC`: whether the broker carries out the server's commands on the device accounts
   * (`refused` when it refuses or does not answer them: devices added or re-keyed cannot connect).
   */
  broker_accounts: z.enum(['ok', 'refused']).optional(),
  /** `low`: DATA_DIR has less free space than DISK_FREE_MIN_MB, and uplinks are refused. */
  disk: z.enum(['ok', 'low']),
  version: z.string(),
  /** How late the server's thread runs its work (the delay every request waits behind), over the last 10–20 s. */
  event_loop: z.object({ p99_ms: z.number(), max_ms: z.number(), window_s: z.number() }),
});
export type Health = z.infer<typeof HealthSchema>;
