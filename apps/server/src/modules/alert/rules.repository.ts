import type { Condition, RuleActions, TriggerRuleValues } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

/** A trigger rule as stored (jsonb columns parsed). */
export interface RuleRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  owner_name: string | null;
  things_id: string;
  things_name: string | null;
  name: string;
  data_type: 'raw' | 'signal' | 'fence';
  channel: number | null;
  frame_format: 'standard' | 'extended';
  frame_type: 'data' | 'remote';
  frame_id: number | null;
  conditions: Condition[];
  condition_join: 'and' | 'or';
  status: 0 | 1;
  level: 'ordinary' | 'urgent';
  share: boolean;
  description: string;
  alert_description: string;
  actions: RuleActions;
  frequency: { notify_interval_s: number; command_interval_s: number };
  recover_action: RuleActions;
  fence_id: string | null;
  fence_rule: 'in' | 'out' | null;
  created_at: Date;
  updated_at: Date;
}

export type RuleWrite = Omit<TriggerRuleValues, 'frame_id'> & { frame_id: number | null };

const COLS = `r.id, r.tenant_id, r.owner_id, u.name as owner_name, r.things_id, t.name as things_name, r.name, r.data_type,
  r.channel, r.frame_format, r.frame_type, r.frame_id, r.conditions, r.condition_join, r.status, r.level, r.share,
  r.description, r.alert_description, r.actions, r.frequency, r.recover_action, r.fence_id, r.fence_rule,
  r.created_at, r.updated_at`;
const FROM = `from trigger_rules r left join users u on u.id = r.owner_id left join things t on t.id = r.things_id`;

/**
 * Visibility for a sub-user (`user` not null): its own rules, and rules shared to sub-users on
 * devices it was granted. Managers see every rule of the tenant.
 */
const VISIBLE = `($2::uuid is null or r.owner_id = $2::uuid or (r.share and exists (
  select 1 from user_device_access a where a.user_id = $2::uuid and a.things_id = r.things_id)))`;

const WRITE_COLS = [
  'name',
  'things_id',
  'data_type',
  'channel',
  'frame_format',
  'frame_type',
  'frame_id',
  'conditions',
  'condition_join',
  'status',
  'level',
  'share',
  'description',
  'alert_description',
  'actions',
  'frequency',
  'recover_action',
  'fence_id',
  'fence_rule',
] as const;
const JSON_COLS = new Set(['conditions', 'actions', 'frequency', 'recover_action']);

function writeValues(v: RuleWrite): unknown[] {
  return WRITE_COLS.map((c) => (JSON_COLS.has(c) ? JSON.stringify(v[c]) : v[c]));
}

export interface RuleFilter {
  thingsId?: string;
  name?: string;
  status?: number;
  dataType?: string;
}

export function rulesRepository(raw: RawSql) {
  return {
    async page(auth: Auth, user: string | null, f: RuleFilter, offset: number, limit: number): Promise<{ rows: RuleRow[]; total: number }> {
      const params: unknown[] = [auth.tenantId, user];
      const where = ['r.tenant_id = $1', VISIBLE];
      if (f.thingsId) where.push(`r.things_id = $${params.push(f.thingsId)}`);
      if (f.name) where.push(`strpos(lower(r.name), lower($${params.push(f.name)})) > 0`);
      if (f.status !== undefined) where.push(`r.status = $${params.push(f.status)}`);
      if (f.dataType) where.push(`r.data_type = $${params.push(f.dataType)}`);
      const w = where.join(' and ');
      const { rows } = await raw.query<RuleRow>(
        `select ${COLS} ${FROM} where ${w} order by r.created_at desc, r.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n ${FROM} where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async get(auth: Auth, id: string): Promise<RuleRow | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const { rows } = await raw.query<RuleRow>(`select ${COLS} ${FROM} where r.tenant_id = $1 and r.id = $2`, [auth.tenantId, id]);
      return rows[0] ?? null;
    },

    async byIds(auth: Auth, user: string | null, ids: string[] | null, thingsId: string | null): Promise<RuleRow[]> {
      const { rows } = await raw.query<RuleRow>(
        `select ${COLS} ${FROM} where r.tenant_id = $1 and ${VISIBLE}
           and ($3::uuid[] is null or r.id = any($3::uuid[])) and ($4::uuid is null or r.things_id = $4::uuid)
         order by r.created_at, r.id`,
        [auth.tenantId, user, ids, thingsId],
      );
      return rows;
    },

    async countByOwner(auth: Auth, ownerId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from trigger_rules where tenant_id = $1 and owner_id = $2',
        [auth.tenantId, ownerId],
      );
      return rows[0].n;
    },

    async countTenant(auth: Auth): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from trigger_rules where tenant_id = $1', [auth.tenantId]);
      return rows[0].n;
    },

    async nameTaken(auth: Auth, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from trigger_rules where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)',
        [auth.tenantId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insert(auth: Auth, ownerId: string, v: RuleWrite): Promise<string> {
      const vals = writeValues(v);
      const { rows } = await raw.query<{ id: string }>(
        `insert into trigger_rules (tenant_id, owner_id, ${WRITE_COLS.join(', ')})
         values ($1, $2, ${WRITE_COLS.map((_, i) => `$${i + 3}`).join(', ')}) returning id`,
        [auth.tenantId, ownerId, ...vals],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: RuleWrite): Promise<void> {
      const vals = writeValues(v);
      await raw.query(
        `update trigger_rules set ${WRITE_COLS.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now()
          where tenant_id = $1 and id = $2`,
        [auth.tenantId, id, ...vals],
      );
      // A redefined rule starts from "not active" with fresh frequency marks.
      await raw.query('delete from alert_rule_states where rule_id = $1', [id]);
    },

    async setStatus(auth: Auth, id: string, status: 0 | 1): Promise<void> {
      await raw.query('update trigger_rules set status = $3, updated_at = now() where tenant_id = $1 and id = $2', [
        auth.tenantId,
        id,
        status,
      ]);
      await raw.query('delete from alert_rule_states where rule_id = $1', [id]);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      await raw.query('delete from trigger_rules where tenant_id = $1 and id = $2', [auth.tenantId, id]);
    },

    /** CAN channel count of a device's type. */
    async deviceChannels(auth: Auth, thingsId: string): Promise<number | null> {
      const { rows } = await raw.query<{ n: number }>(
        'select dt.can_channels as n from things t join device_types dt on dt.id = t.info_model_id where t.tenant_id = $1 and t.id = $2',
        [auth.tenantId, thingsId],
      );
      return rows[0] ? Number(rows[0].n) : null;
    },

    /** The DBC bound to a device channel (any parsing state), or null. */
    async channelDbc(auth: Auth, thingsId: string, channel: number): Promise<{ id: string; content: string } | null> {
      const { rows } = await raw.query<{ id: string; content: string }>(
        `select f.id, f.content from channel_dbc_bindings b join dbc_files f on f.id = b.dbc_id
          where b.tenant_id = $1 and b.things_id = $2 and b.channel = $3`,
        [auth.tenantId, thingsId, channel],
      );
      return rows[0] ?? null;
    },

    /** Whether the fence exists in the tenant, and whether it is bound to the device. */
    async fenceBinding(auth: Auth, fenceId: string, thingsId: string): Promise<{ exists: boolean; bound: boolean }> {
      const { rows } = await raw.query<{ bound: boolean }>(
        `select exists (select 1 from fence_things ft where ft.fence_id = f.id and ft.things_id = $3) as bound
           from fences f where f.tenant_id = $1 and f.id = $2`,
        [auth.tenantId, fenceId, thingsId],
      );
      return { exists: rows.length > 0, bound: rows[0]?.bound === true };
    },
  };
}
export type RulesRepository = ReturnType<typeof rulesRepository>;
