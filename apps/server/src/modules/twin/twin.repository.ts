import type { FnJsonSchema, TwinAction, TwinCondition } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export type Reported = Record<string, { value: unknown; ts: number }>;

export interface TwinRow {
  things_id: string;
  tenant_id: string;
  reported: Reported;
  desired: Record<string, unknown>;
  desired_version: number;
  desired_at: Date | null;
  acked_version: number;
  ack_code: number | null;
  ack_message: string | null;
  acked_at: Date | null;
  reported_at: Date | null;
}

export interface ThingModelRow {
  things_id: string;
  tenant_id: string;
  third_things_id: string;
  info_model_id: string;
}

export interface ModelBlock {
  name: string;
  json_schema: FnJsonSchema;
}

export interface EventRow {
  id: string;
  block: string;
  event: string;
  event_type: string | null;
  data: Record<string, unknown>;
  ts: Date;
}

export interface TwinRuleRow {
  id: string;
  tenant_id: string;
  name: string;
  status: number;
  shadow_type: string;
  trigger_condition: TwinCondition[];
  trigger_filter: { info_model_id?: string; things_ids?: string[] };
  actions: TwinAction[];
  fires: number;
  created_at: Date;
  updated_at: Date;
}

export interface RuleValues {
  name: string;
  status: number;
  shadow_type: string;
  trigger_condition: TwinCondition[];
  trigger_filter: { info_model_id?: string; things_ids?: string[] };
  actions: TwinAction[];
}

const TWIN_COLS = `things_id, tenant_id, reported, desired, desired_version, desired_at, acked_version, ack_code, ack_message,
  acked_at, reported_at`;
const RULE_COLS = `r.id, r.tenant_id, r.name, r.status, r.shadow_type, r.trigger_condition, r.trigger_filter, r.actions, r.created_at,
  r.updated_at, (select count(*)::int from twin_rule_fires f where f.rule_id = r.id) as fires`;

/**
 * Digital twins, model events and twin rules. SQL only. The ingest side addresses a device by its
 * tenant and id (from the authenticated connection); the API side by the caller's tenant.
 */
/**
 * The tables of a device's model data, each with `tenant_id`, `things_id` and `ts`: its twin's events
 * and the history of its properties. Every path that deletes a device's data by time (clean tasks,
 * retention, quick delete) deletes from each of them.
 */
export const MODEL_DATA_TABLES = ['thing_model_events', 'thing_property_values'] as const;
export type ModelDataTable = (typeof MODEL_DATA_TABLES)[number];

export function twinRepository(raw: RawSql) {
  return {
    async thing(tenantId: string, thingsId: string): Promise<ThingModelRow | null> {
      const { rows } = await raw.query<ThingModelRow>(
        'select id as things_id, tenant_id, third_things_id, info_model_id from things where tenant_id = $1 and id = $2',
        [tenantId, thingsId],
      );
      return rows[0] ?? null;
    },

    /** The function blocks of a model, in order. */
    async modelBlocks(modelId: string): Promise<ModelBlock[]> {
      const { rows } = await raw.query<ModelBlock>(
        `select b.name, b.json_schema from info_model_fn_blocks mb join function_blocks b on b.id = mb.fn_block_id
         where mb.info_model_id = $1 order by mb.sort, b.name`,
        [modelId],
      );
      return rows;
    },

    async twin(tenantId: string, thingsId: string): Promise<TwinRow | null> {
      const { rows } = await raw.query<TwinRow>(`select ${TWIN_COLS} from thing_twins where tenant_id = $1 and things_id = $2`, [
        tenantId,
        thingsId,
      ]);
      return rows[0] ?? null;
    },

    /** Merges reported values in; answers the reported state before and after. */
    async report(tenantId: string, thingsId: string, patch: Reported): Promise<{ before: Reported; after: Reported }> {
      return raw.transaction(async (tx) => {
        await tx.query('insert into thing_twins (things_id, tenant_id) values ($1, $2) on conflict (things_id) do nothing', [
          thingsId,
          tenantId,
        ]);
        const cur = await tx.query<{ reported: Reported }>(
          'select reported from thing_twins where tenant_id = $1 and things_id = $2 for update',
          [tenantId, thingsId],
        );
        const before = cur.rows[0]?.reported ?? {};
        const after = { ...before, ...patch };
        await tx.query('update thing_twins set reported = $3, reported_at = now() where tenant_id = $1 and things_id = $2', [
          tenantId,
          thingsId,
          JSON.stringify(after),
        ]);
        // Each value also into the property's history, in the same transaction.
        const paths = Object.keys(patch);
        await tx.query(
          `insert into thing_property_values (tenant_id, things_id, property, ts, value)
           select $1, $2, p, to_timestamp(t / 1000), v::jsonb from unnest($3::text[], $4::float8[], $5::text[]) as u(p, t, v)`,
          [tenantId, thingsId, paths, paths.map((k) => patch[k].ts), paths.map((k) => JSON.stringify(patch[k].value))],
        );
        return { before, after };
      });
    },

    /** One property's values in [fromMs, toMs], the newest `limit` of them (and whether there were more), oldest first. */
    async propertyHistory(
      tenantId: string,
      thingsId: string,
      property: string,
      fromMs: number,
      toMs: number,
      limit: number,
    ): Promise<{ rows: { ts: number; value: unknown }[]; truncated: boolean }> {
      const { rows } = await raw.query<{ ts: number; value: unknown }>(
        `select (extract(epoch from ts) * 1000)::float8 as ts, value from thing_property_values
         where tenant_id = $1 and things_id = $2 and property = $3
           and ts >= to_timestamp($4::float8 / 1000) and ts <= to_timestamp($5::float8 / 1000)
         order by ts desc limit $6`,
        [tenantId, thingsId, property, fromMs, toMs, limit + 1],
      );
      const truncated = rows.length > limit;
      return {
        rows: rows
          .slice(0, limit)
          .reverse()
          .map((r) => ({ ts: Math.round(Number(r.ts)), value: r.value })),
        truncated,
      };
    },

    /** Merges desired values in (null removes one) and counts a new version. */
    async setDesired(tenantId: string, thingsId: string, patch: Record<string, unknown>): Promise<TwinRow> {
      return raw.transaction(async (tx) => {
        await tx.query('insert into thing_twins (things_id, tenant_id) values ($1, $2) on conflict (things_id) do nothing', [
          thingsId,
          tenantId,
        ]);
        const removed = Object.keys(patch).filter((k) => patch[k] === null);
        const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null));
        const { rows } = await tx.query<TwinRow>(
          `update thing_twins set desired = (desired || $3::jsonb) - $4::text[], desired_version = desired_version + 1, desired_at = now()
           where tenant_id = $1 and things_id = $2 returning ${TWIN_COLS}`,
          [tenantId, thingsId, JSON.stringify(set), removed],
        );
        return rows[0];
      });
    },

    /** The device's acknowledgement of a desired version (never of one it was not sent). */
    async ack(tenantId: string, thingsId: string, version: number, code: number, message: string | null): Promise<boolean> {
      const r = await raw.query(
        `update thing_twins set acked_version = $3, ack_code = $4, ack_message = $5, acked_at = now()
         where tenant_id = $1 and things_id = $2 and $3 <= desired_version and $3 >= acked_version returning things_id`,
        [tenantId, thingsId, version, code, message],
      );
      return r.rows.length > 0;
    },

    async insertEvents(
      tenantId: string,
      thingsId: string,
      events: { block: string; event: string; event_type: string | null; data: Record<string, unknown>; ts: number }[],
    ): Promise<void> {
      if (!events.length) return;
      await raw.query(
        `insert into thing_model_events (tenant_id, things_id, block, event, event_type, data, ts)
         select $1, $2, e.block, e.event, e.event_type, e.data, to_timestamp(e.ts / 1000.0)
         from jsonb_to_recordset($3::jsonb) as e(block text, event text, event_type text, data jsonb, ts bigint)`,
        [tenantId, thingsId, JSON.stringify(events)],
      );
    },

    async eventPage(auth: Auth, thingsId: string, offset: number, limit: number): Promise<{ rows: EventRow[]; total: number }> {
      const { rows } = await raw.query<EventRow>(
        `select id::text, block, event, event_type, data, ts from thing_model_events where tenant_id = $1 and things_id = $2
         order by ts desc, id desc limit $3 offset $4`,
        [auth.tenantId, thingsId, limit, offset],
      );
      const c = await raw.query<{ n: number }>(
        'select count(*)::int as n from thing_model_events where tenant_id = $1 and things_id = $2',
        [auth.tenantId, thingsId],
      );
      return { rows, total: c.rows[0].n };
    },

    // ---- twin rules

    async enabledRules(tenantId: string): Promise<TwinRuleRow[]> {
      const { rows } = await raw.query<TwinRuleRow>(`select ${RULE_COLS} from twin_rules r where r.tenant_id = $1 and r.status = 1`, [
        tenantId,
      ]);
      return rows;
    },

    async rulePage(auth: Auth, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'r.tenant_id = $1';
      if (keyword) where += ` and strpos(lower(r.name), lower($${params.push(keyword)})) > 0`;
      const { rows } = await raw.query<TwinRuleRow>(
        `select ${RULE_COLS} from twin_rules r where ${where} order by r.created_at desc, r.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from twin_rules r where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },

    async rule(auth: Auth, id: string): Promise<TwinRuleRow | null> {
      const { rows } = await raw.query<TwinRuleRow>(`select ${RULE_COLS} from twin_rules r where r.tenant_id = $1 and r.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async ruleByName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from twin_rules where tenant_id = $1 and name = $2', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insertRule(auth: Auth, v: RuleValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into twin_rules (tenant_id, name, status, shadow_type, trigger_condition, trigger_filter, actions, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          auth.tenantId,
          v.name,
          v.status,
          v.shadow_type,
          JSON.stringify(v.trigger_condition),
          JSON.stringify(v.trigger_filter),
          JSON.stringify(v.actions),
          auth.userId,
        ],
      );
      return rows[0].id;
    },

    async updateRule(auth: Auth, id: string, v: RuleValues): Promise<boolean> {
      const r = await raw.query(
        `update twin_rules set name = $3, status = $4, shadow_type = $5, trigger_condition = $6, trigger_filter = $7, actions = $8,
           updated_at = now() where tenant_id = $1 and id = $2 returning id`,
        [
          auth.tenantId,
          id,
          v.name,
          v.status,
          v.shadow_type,
          JSON.stringify(v.trigger_condition),
          JSON.stringify(v.trigger_filter),
          JSON.stringify(v.actions),
        ],
      );
      return r.rows.length > 0;
    },

    async setRuleStatus(auth: Auth, id: string, status: number): Promise<boolean> {
      const r = await raw.query('update twin_rules set status = $3, updated_at = now() where tenant_id = $1 and id = $2 returning id', [
        auth.tenantId,
        id,
        status,
      ]);
      return r.rows.length > 0;
    },

    async removeRule(auth: Auth, id: string): Promise<boolean> {
      const r = await raw.query('delete from twin_rules where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length > 0;
    },

    async insertFire(tenantId: string, ruleId: string, thingsId: string, values: Record<string, unknown>, actions: unknown[]) {
      await raw.query('insert into twin_rule_fires (tenant_id, rule_id, things_id, values, actions) values ($1, $2, $3, $4, $5)', [
        tenantId,
        ruleId,
        thingsId,
        JSON.stringify(values),
        JSON.stringify(actions),
      ]);
    },

    async firePage(auth: Auth, q: { rule_id?: string; things_id?: string }, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'f.tenant_id = $1';
      if (q.rule_id) where += ` and f.rule_id = $${params.push(q.rule_id)}`;
      if (q.things_id) where += ` and f.things_id = $${params.push(q.things_id)}`;
      const { rows } = await raw.query<{
        id: string;
        rule_id: string;
        rule_name: string;
        things_id: string;
        values: Record<string, unknown>;
        actions: unknown[];
        fired_at: Date;
      }>(
        `select f.id::text, f.rule_id, r.name as rule_name, f.things_id, f.values, f.actions, f.fired_at
         from twin_rule_fires f join twin_rules r on r.id = f.rule_id where ${where}
         order by f.fired_at desc, f.id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from twin_rule_fires f where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },
  };
}
export type TwinRepository = ReturnType<typeof twinRepository>;
