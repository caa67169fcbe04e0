import type { FenceBorder, FenceRegion } from '@loggerhead/contract';
import type { RawSql } from '../db/client.ts';
import type { RuleRow } from '../modules/alert/rules.repository.ts';

/** The device a rule watches, as actions need it (command topic, message envelope, texts). */
export interface DeviceInfo {
  tenantId: string;
  thingsId: string;
  name: string;
  deviceId: string;
  infoModelId: string;
  thingType: number;
}

export interface FenceRuleRow extends RuleRow {
  fence_name: string;
  fence_type: 'region' | 'border';
  fence_region: FenceRegion | null;
  fence_border: FenceBorder | null;
}

export interface StoredState {
  rule_id: string;
  active: boolean;
  last_event_id: string | null;
  marks: Record<string, number>;
}

const RULE_COLS = `r.id, r.tenant_id, r.owner_id, null as owner_name, r.things_id, t.name as things_name, r.name, r.data_type,
  r.channel, r.frame_format, r.frame_type, r.frame_id, r.conditions, r.condition_join, r.status, r.level, r.share,
  r.description, r.alert_description, r.actions, r.frequency, r.recover_action, r.fence_id, r.fence_rule,
  r.created_at, r.updated_at`;

/** What the evaluator reads: a device's enabled rules, the DBCs of its channels, stored rule states. */
export function engineRepository(raw: RawSql) {
  return {
    async device(tenantId: string, thingsId: string): Promise<DeviceInfo | null> {
      const { rows } = await raw.query<{ name: string; third_things_id: string; info_model_id: string; thing_type: number }>(
        'select name, third_things_id, info_model_id, thing_type from things where tenant_id = $1 and id = $2',
        [tenantId, thingsId],
      );
      const r = rows[0];
      return r
        ? { tenantId, thingsId, name: r.name, deviceId: r.third_things_id, infoModelId: r.info_model_id, thingType: Number(r.thing_type) }
        : null;
    },

    async frameRules(tenantId: string, thingsId: string): Promise<RuleRow[]> {
      const { rows } = await raw.query<RuleRow>(
        `select ${RULE_COLS} from trigger_rules r join things t on t.id = r.things_id
          where r.tenant_id = $1 and r.things_id = $2 and r.status = 1 and r.data_type in ('raw', 'signal')`,
        [tenantId, thingsId],
      );
      return rows;
    },

    /** Enabled frame rules of many devices in one statement (a fleet's batch group). */
    async frameRulesOf(devices: { tenantId: string; thingsId: string }[]): Promise<RuleRow[]> {
      const { rows } = await raw.query<RuleRow>(
        `select ${RULE_COLS} from trigger_rules r join things t on t.id = r.things_id
          where (r.tenant_id, r.things_id) in (select * from unnest($1::uuid[], $2::uuid[]))
            and r.status = 1 and r.data_type in ('raw', 'signal')`,
        [devices.map((d) => d.tenantId), devices.map((d) => d.thingsId)],
      );
      return rows;
    },

    /** Enabled fence rules of many devices in one statement. */
    async fenceRulesOf(devices: { tenantId: string; thingsId: string }[]): Promise<FenceRuleRow[]> {
      const { rows } = await raw.query<FenceRuleRow>(
        `select ${RULE_COLS}, f.name as fence_name, f.type as fence_type, f.region as fence_region, f.border as fence_border
           from trigger_rules r join things t on t.id = r.things_id
           join fences f on f.id = r.fence_id
           join fence_things ft on ft.fence_id = f.id and ft.things_id = r.things_id
          where (r.tenant_id, r.things_id) in (select * from unnest($1::uuid[], $2::uuid[]))
            and r.status = 1 and r.data_type = 'fence'`,
        [devices.map((d) => d.tenantId), devices.map((d) => d.thingsId)],
      );
      return rows;
    },

    /** Enabled fence rules whose fence is (still) bound to the device. */
    async fenceRules(tenantId: string, thingsId: string): Promise<FenceRuleRow[]> {
      const { rows } = await raw.query<FenceRuleRow>(
        `select ${RULE_COLS}, f.name as fence_name, f.type as fence_type, f.region as fence_region, f.border as fence_border
           from trigger_rules r join things t on t.id = r.things_id
           join fences f on f.id = r.fence_id
           join fence_things ft on ft.fence_id = f.id and ft.things_id = r.things_id
          where r.tenant_id = $1 and r.things_id = $2 and r.status = 1 and r.data_type = 'fence'`,
        [tenantId, thingsId],
      );
      return rows;
    },

    /** DBC text per channel bound on the device (any parsing state), with a version for caching. */
    async channelDbcs(tenantId: string, thingsId: string): Promise<{ channel: number; dbc_id: string; version: number }[]> {
      const { rows } = await raw.query<{ channel: number; dbc_id: string; version: number }>(
        `select b.channel, b.dbc_id, extract(epoch from f.updated_at)::float8 as version
           from channel_dbc_bindings b join dbc_files f on f.id = b.dbc_id
          where b.tenant_id = $1 and b.things_id = $2`,
        [tenantId, thingsId],
      );
      return rows.map((r) => ({ channel: Number(r.channel), dbc_id: r.dbc_id, version: Number(r.version) }));
    },

    async dbcContent(dbcId: string): Promise<string | null> {
      const { rows } = await raw.query<{ content: string }>('select content from dbc_files where id = $1', [dbcId]);
      return rows[0]?.content ?? null;
    },

    async states(thingsId: string, ruleIds: string[]): Promise<StoredState[]> {
      if (!ruleIds.length) return [];
      const { rows } = await raw.query<StoredState>(
        'select rule_id, active, last_event_id, marks from alert_rule_states where things_id = $1 and rule_id = any($2::uuid[])',
        [thingsId, ruleIds],
      );
      return rows;
    },

    async saveState(ruleId: string, thingsId: string, active: boolean, lastEventId: string | null, marks: Record<string, number>) {
      await raw.query(
        `insert into alert_rule_states (rule_id, things_id, active, last_event_id, marks, updated_at) values ($1,$2,$3,$4,$5, now())
         on conflict (rule_id, things_id) do update set active = excluded.active, last_event_id = excluded.last_event_id,
           marks = excluded.marks, updated_at = now()`,
        [ruleId, thingsId, active, lastEventId, JSON.stringify(marks)],
      );
    },
  };
}
export type EngineRepository = ReturnType<typeof engineRepository>;
