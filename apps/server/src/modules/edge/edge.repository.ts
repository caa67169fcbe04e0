import type { FnJsonSchema } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface EdgeRuleRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  info_model_id: string;
  kind: 'filter' | 'aggregate';
  field: string;
  threshold: number | null;
  fn: 'mean' | 'min' | 'max' | null;
  window_s: number | null;
  version: number;
  issued: number;
  accepted: number;
  created_at: Date;
  updated_at: Date;
}

export interface EdgeRuleValues {
  name: string;
  description: string;
  info_model_id: string;
  kind: 'filter' | 'aggregate';
  field: string;
  threshold: number | null;
  fn: 'mean' | 'min' | 'max' | null;
  window_s: number | null;
}

export interface IssuanceRow {
  id: string;
  rule_id: string;
  rule_name: string;
  rule_version: number;
  things_id: string;
  things_name: string;
  third_things_id: string;
  group_id: string | null;
  correlation_id: string;
  command_state: string;
  code: number | null;
  message: string | null;
  issued_at: Date;
  answered_at: Date | null;
}

const RULE_COLS = `r.id, r.tenant_id, r.name, r.description, r.info_model_id, r.kind, r.field, r.threshold, r.fn, r.window_s,
  r.version, r.created_at, r.updated_at,
  (select count(distinct i.things_id)::int from edge_rule_issuances i where i.rule_id = r.id) as issued,
  (select count(*)::int from (select distinct on (i.things_id) c.state from edge_rule_issuances i
     join device_commands c on c.correlation_id = i.correlation_id
     where i.rule_id = r.id and i.rule_version = r.version order by i.things_id, i.issued_at desc, i.id desc) x
   where x.state = 'answered') as accepted`;

/** What the command's state says of an issuance (the service maps it to issued/accepted/rejected/timeout). */
const ISSUANCE_STATE_SQL: Record<string, string> = {
  issued: `c.state in ('queued', 'sent', 'delivered')`,
  accepted: `c.state = 'answered'`,
  rejected: `c.state = 'failed'`,
  timeout: `c.state in ('timeout', 'expired')`,
  cancelled: `c.state = 'cancelled'`,
};

/** Edge-computing rules and their issuances. SQL only; every query scoped by the caller's tenant. */
export function edgeRepository(raw: RawSql) {
  return {
    async page(auth: Auth, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'r.tenant_id = $1';
      if (keyword) where += ` and r.name ilike $${params.push(`%${keyword.replace(/[\\%_]/g, '\\$&')}%`)}`;
      const { rows } = await raw.query<EdgeRuleRow>(
        `select ${RULE_COLS} from edge_rules r where ${where} order by r.created_at desc, r.id
         limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from edge_rules r where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },

    async count(auth: Auth): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from edge_rules where tenant_id = $1', [auth.tenantId]);
      return rows[0].n;
    },

    async get(auth: Auth, id: string): Promise<EdgeRuleRow | null> {
      const { rows } = await raw.query<EdgeRuleRow>(`select ${RULE_COLS} from edge_rules r where r.tenant_id = $1 and r.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async byName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from edge_rules where tenant_id = $1 and lower(name) = lower($2)', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insert(auth: Auth, v: EdgeRuleValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into edge_rules (tenant_id, name, description, info_model_id, kind, field, threshold, fn, window_s, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
        [auth.tenantId, v.name, v.description, v.info_model_id, v.kind, v.field, v.threshold, v.fn, v.window_s, auth.userId],
      );
      return rows[0].id;
    },

    /** Changes the rule and counts its version up, so devices replace the one they hold. */
    async update(auth: Auth, id: string, v: EdgeRuleValues): Promise<boolean> {
      const r = await raw.query(
        `update edge_rules set name = $3, description = $4, info_model_id = $5, kind = $6, field = $7, threshold = $8, fn = $9,
           window_s = $10, version = version + 1, updated_at = now()
         where tenant_id = $1 and id = $2 returning id`,
        [auth.tenantId, id, v.name, v.description, v.info_model_id, v.kind, v.field, v.threshold, v.fn, v.window_s],
      );
      return r.rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const r = await raw.query('delete from edge_rules where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length > 0;
    },

    /** The function blocks of a model the tenant may use (its own or a public one); null when it has no such model. */
    async modelBlocks(auth: Auth, modelId: string): Promise<{ name: string; json_schema: FnJsonSchema }[] | null> {
      const m = await raw.query('select 1 from device_types where id = $1 and (tenant_id = $2 or tenant_id is null)', [
        modelId,
        auth.tenantId,
      ]);
      if (!m.rows.length) return null;
      const { rows } = await raw.query<{ name: string; json_schema: FnJsonSchema }>(
        `select b.name, b.json_schema from info_model_fn_blocks mb join function_blocks b on b.id = mb.fn_block_id
         where mb.info_model_id = $1 order by mb.sort, b.name`,
        [modelId],
      );
      return rows;
    },

    /** The models of the tenant's devices among `ids`. */
    async thingModels(auth: Auth, ids: string[]): Promise<{ id: string; info_model_id: string }[]> {
      const { rows } = await raw.query<{ id: string; info_model_id: string }>(
        'select id, info_model_id from things where tenant_id = $1 and id = any($2::uuid[])',
        [auth.tenantId, ids],
      );
      return rows;
    },

    async groupMembers(auth: Auth, groupId: string): Promise<string[] | null> {
      const g = await raw.query('select 1 from device_groups where tenant_id = $1 and id = $2', [auth.tenantId, groupId]);
      if (!g.rows.length) return null;
      const { rows } = await raw.query<{ things_id: string }>(
        'select things_id from device_group_things where tenant_id = $1 and group_id = $2 order by created_at, things_id',
        [auth.tenantId, groupId],
      );
      return rows.map((r) => r.things_id);
    },

    async addIssuance(
      auth: Auth,
      v: { ruleId: string; version: number; thingsId: string; groupId: string | null; correlationId: string },
    ): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into edge_rule_issuances (tenant_id, rule_id, rule_version, things_id, group_id, correlation_id, issued_by)
         values ($1, $2, $3, $4, $5, $6, $7) returning id::text`,
        [auth.tenantId, v.ruleId, v.version, v.thingsId, v.groupId, v.correlationId, auth.userId],
      );
      return rows[0].id;
    },

    /** Issuances with their command's state; a sub-user sees those of devices granted to it. */
    async issuances(
      auth: Auth,
      user: string | null,
      q: { rule_id?: string; things_id?: string; state?: string; ids?: string[] },
      offset: number,
      limit: number,
    ) {
      const params: unknown[] = [auth.tenantId];
      let where = 'i.tenant_id = $1';
      if (q.rule_id) where += ` and i.rule_id = $${params.push(q.rule_id)}`;
      if (q.things_id) where += ` and i.things_id = $${params.push(q.things_id)}`;
      if (q.ids) where += ` and i.id = any($${params.push(q.ids)}::bigint[])`;
      if (q.state) where += ` and ${ISSUANCE_STATE_SQL[q.state]}`;
      if (user)
        where += ` and exists (select 1 from user_device_access a where a.user_id = $${params.push(user)} and a.things_id = i.things_id)`;
      const from = `edge_rule_issuances i join edge_rules r on r.id = i.rule_id join things t on t.id = i.things_id
        left join device_commands c on c.correlation_id = i.correlation_id`;
      const { rows } = await raw.query<IssuanceRow>(
        `select i.id::text, i.rule_id, r.name as rule_name, i.rule_version, i.things_id, t.name as things_name, t.third_things_id,
           i.group_id, i.correlation_id, coalesce(c.state, 'expired') as command_state, c.code, c.message, i.issued_at, c.answered_at
         from ${from} where ${where} order by i.issued_at desc, i.id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from ${from} where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },
  };
}
export type EdgeRepository = ReturnType<typeof edgeRepository>;
