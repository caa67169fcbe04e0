import type { RawSql } from '../db/client.ts';

/** The time slots of short periodic tasks (`periodic_slots`): one row per task, on the database's clock. */
export function periodicSlotsRepository(raw: RawSql) {
  return {
    /**
     * Takes the current slot of `name` (the database's time divided by `periodMs`) for `holder`: its
     * number when no copy had taken it yet, null for the copies asking later within the same slot.
     */
    async claim(name: string, periodMs: number, holder: string): Promise<number | null> {
      const { rows } = await raw.query<{ slot: string }>(
        `insert into periodic_slots (name, slot, holder)
         values ($1, floor(extract(epoch from clock_timestamp()) * 1000 / $2)::bigint, $3)
         on conflict (name) do update set slot = excluded.slot, holder = excluded.holder, ran_at = now()
           where periodic_slots.slot < excluded.slot
         returning slot`,
        [name, periodMs, holder],
      );
      return rows[0] ? Number(rows[0].slot) : null;
    },
  };
}
