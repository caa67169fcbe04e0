import { z } from 'zod';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['up', 'down']),
  broker: z.enum(['up', 'down']),
  /** `low`: DATA_DIR has less free space than DISK_FREE_MIN_MB, and uplinks are refused. */
  disk: z.enum(['ok', 'low']),
  version: z.string(),
});
export type Health = z.infer<typeof HealthSchema>;
