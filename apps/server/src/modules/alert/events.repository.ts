import type { AlertEventQuery } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface EventRow {
  id: string;
  tenant_id: string;
  rule_id: string | null;
  rule_name: string;
  things_id: string;
  things_name: string | null;
  level: 'ordinary' | 'urgent';
  source_type: 'trigger' | 'fence';
  event_data: Record<string, unknown>;
  handler: string | null;
  handler_status: number;
  handler_description: string | null;
  handled_at: Date | null;
  created_at: Date;
  recovered_at: Date | null;
}

export interface NewEvent {
  tenantId: string;
  ruleId: string;
  ruleName: string;
  ownerId: string;
  share: boolean;
  thingsId: string;
  level: string;
  sourceType: 'trigger' | 'fence';
  eventData: Record<string, unknown>;
  at: Date;
}

const COLS = `e.id, e.tenant_id, e.rule_id, e.rule_name, e.things_id, t.name as things_name, e.level, e.source_type, e.event_data,
  e.handler, e.handler_status, e.handler_description, e.handled_at, e.created_at, e.recovered_at`;

/**
 * A sub-user sees the events of its own rules and of rules shared to it, on devices it was
 * granted; a manager sees all events of the tenant.
 */
const VISIBLE = `($2::uuid is null or (exists (select 1 from user_device_access a where a.user_id = $2::uuid and a.things_id = e.things_id)
  and (e.owner_id = $2::uuid or e.share)))`;

function filters(q: Partial<AlertEventQuery>, params: unknown[]): string {
  const where = ['e.tenant_id = $1', VISIBLE];
  if (q.begin_time !== undefined) where.push(`e.created_at >= to_timestamp($${params.push(q.begin_time / 1000)})`);
  if (q.end_time !== undefined) where.push(`e.created_at < to_timestamp($${params.push(q.end_time / 1000)})`);
  if (q.things_id) where.push(`e.things_id = $${params.push(q.things_id)}`);
  if (q.rule_id) where.push(`e.rule_id = $${params.push(q.rule_id)}`);
  if (q.level) where.push(`e.level = $${params.push(q.level)}`);
  if (q.handler_status !== undefined) where.push(`e.handler_status = $${params.push(q.handler_status)}`);
  if (q.source_type) where.push(`e.source_type = $${params.push(q.source_type)}`);
  return where.join(' and ');
}

export function eventsRepository(raw: RawSql) {
  return {
    async insert(e: NewEvent): Promise<EventRow> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into alert_events (tenant_id, rule_id, rule_name, owner_id, share, things_id, level, source_type, event_data, created_at)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) returning id`,
        [e.tenantId, e.ruleId, e.ruleName, e.ownerId, e.share, e.thingsId, e.level, e.sourceType, JSON.stringify(e.eventData), e.at],
      );
      return (await this.byId(e.tenantId, rows[0].id)) as EventRow;
    },

    async byId(tenantId: string, id: string): Promise<EventRow | null> {
      const { rows } = await raw.query<EventRow>(
        `select ${COLS} from alert_events e left join things t on t.id = e.things_id where e.tenant_id = $1 and e.id = $2`,
        [tenantId, id],
      );
      return rows[0] ?? null;
    },

    async recovered(tenantId: string, id: string, at: Date, data: Record<string, unknown>): Promise<void> {
      await raw.query(
        `update alert_events set recovered_at = $3, event_data = event_data || jsonb_build_object('recover', $4::jsonb)
          where tenant_id = $1 and id = $2 and recovered_at is null`,
        [tenantId, id, at, JSON.stringify(data)],
      );
    },

    async page(auth: Auth, user: string | null, q: AlertEventQuery): Promise<{ rows: EventRow[]; total: number }> {
      const params: unknown[] = [auth.tenantId, user];
      const w = filters(q, params);
      const { rows } = await raw.query<EventRow>(
        `select ${COLS} from alert_events e left join things t on t.id = e.things_id where ${w}
          order by e.created_at desc, e.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, q.page_size, (q.current_page - 1) * q.page_size],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from alert_events e where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async visible(auth: Auth, user: string | null, id: string): Promise<EventRow | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const params: unknown[] = [auth.tenantId, user, id];
      const { rows } = await raw.query<EventRow>(
        `select ${COLS} from alert_events e left join things t on t.id = e.things_id where ${filters({}, [])} and e.id = $3`,
        params,
      );
      return rows[0] ?? null;
    },

    async handle(auth: Auth, id: string, h: { handler: string; status: number; description: string }): Promise<void> {
      await raw.query(
        `update alert_events set handler = $3, handler_status = $4, handler_description = $5, handled_at = now()
          where tenant_id = $1 and id = $2`,
        [auth.tenantId, id, h.handler, h.status, h.description],
      );
    },

    async remove(auth: Auth, id: string): Promise<number> {
      const { rows } = await raw.query('delete from alert_events where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return rows.length;
    },

    /**
     * Deletes every event the caller sees (optionally narrowed by the list filters); a sub-user only
     * those of devices it may write to (deleting is a device write, spec §6).
     */
    async removeAll(auth: Auth, user: string | null, q: Partial<AlertEventQuery>): Promise<number> {
      const params: unknown[] = [auth.tenantId, user];
      const w = filters(q, params);
      const { rows } = await raw.query(
        `delete from alert_events e where ${w} and ($2::uuid is null or exists (select 1 from user_device_access w
           where w.user_id = $2::uuid and w.things_id = e.things_id and w.access = 'write')) returning e.id`,
        params,
      );
      return rows.length;
    },
  };
}
export type EventsRepository = ReturnType<typeof eventsRepository>;
