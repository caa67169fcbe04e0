import type { BehaviourEvent } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface BehaviourSummaryRowDb {
  platform: string;
  module: string;
  action: string;
  tenant_id: string;
  tenant_name: string | null;
  count: number;
  users: number;
  last_at: Date;
}

/** User behaviour: header clicks, one statement per post; their summary over a period. */
export function behaviourRepository(raw: RawSql) {
  return {
    async insert(tenantId: string, userId: string, events: BehaviourEvent[]): Promise<number> {
      const { rows } = await raw.query(
        `insert into user_behaviours (tenant_id, user_id, platform, module, action)
         select $1, $2, e.platform, e.module, e.action from unnest($3::text[], $4::text[], $5::text[]) as e(platform, module, action)
         returning id`,
        [tenantId, userId, events.map((e) => e.platform), events.map((e) => e.module), events.map((e) => e.action)],
      );
      return rows.length;
    },

    /** Deletes rows older than `before`, a bounded batch per statement; how many went. */
    async purgeBefore(before: Date, batch = 10_000): Promise<number> {
      let gone = 0;
      for (;;) {
        const { rows } = await raw.query(
          `delete from user_behaviours where id in (select id from user_behaviours where at < $1 order by at limit $2) returning id`,
          [before, batch],
        );
        gone += rows.length;
        if (rows.length < batch) return gone;
      }
    },

    async summary(q: { from: Date; to: Date; tenantId?: string; module?: string }, limit: number) {
      const params: unknown[] = [q.from, q.to];
      const where = ['b.at >= $1', 'b.at < $2'];
      if (q.tenantId) where.push(`b.tenant_id = $${params.push(q.tenantId)}`);
      if (q.module) where.push(`b.module = $${params.push(q.module)}`);
      const w = where.join(' and ');
      const { rows } = await raw.query<BehaviourSummaryRowDb>(
        `select b.platform, b.module, b.action, b.tenant_id, t.name as tenant_name, count(*)::int as count,
                count(distinct b.user_id)::int as users, max(b.at) as last_at
           from user_behaviours b left join tenants t on t.id = b.tenant_id
          where ${w}
          group by b.platform, b.module, b.action, b.tenant_id, t.name
          order by count desc, b.module, b.action, t.name limit $${params.length + 1}`,
        [...params, limit],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from user_behaviours b where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },
  };
}
export type BehaviourRepository = ReturnType<typeof behaviourRepository>;
