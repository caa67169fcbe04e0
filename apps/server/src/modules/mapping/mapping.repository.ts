import type { DbcMessageInfo, StrategySignalRef } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

/** A line of a DBC file the parser skipped, as stored in `dbc_files.warnings` (jsonb). */
export interface DbcWarningRow {
  line: number;
  col: number;
  reason: string;
}

export interface DbcRow {
  id: string;
  tenant_id: string;
  name: string;
  protocol: number;
  file_name: string;
  size: number;
  message_count: number;
  signal_count: number;
  warnings: DbcWarningRow[];
  bound_channels: number;
  created_at: Date;
  updated_at: Date;
}

export interface StrategyRow {
  id: string;
  tenant_id: string;
  name: string;
  nickname: string | null;
  description: string | null;
  dbc_id: string;
  dbc_name: string;
  signals: StrategySignalRef[];
  remark: string | null;
  bound_channels: number;
  created_at: Date;
  updated_at: Date;
}

export interface BindingRow {
  things_id: string;
  channel: number;
  dbc_id: string;
  dbc_name: string;
  strategy_id: string | null;
  strategy_name: string | null;
  state: number;
  updated_at: Date;
}

export interface DbcWrite {
  name: string;
  protocol: number;
  file_name: string;
  content: string;
  size: number;
  message_count: number;
  signal_count: number;
  /** The messages view, or its JSON text. */
  summary: DbcMessageInfo[] | string;
  warnings: DbcWarningRow[];
}

const DBC_COLS = `f.id, f.tenant_id, f.name, f.protocol, f.file_name, f.size, f.message_count, f.signal_count, f.warnings,
  f.created_at, f.updated_at,
  (select count(*)::int from channel_dbc_bindings b where b.dbc_id = f.id) as bound_channels`;
const STRATEGY_COLS = `s.id, s.tenant_id, s.name, s.nickname, s.description, s.dbc_id, f.name as dbc_name, s.signals, s.remark,
  s.created_at, s.updated_at,
  (select count(*)::int from channel_dbc_bindings b where b.strategy_id = s.id) as bound_channels`;
const BINDING_COLS = `b.things_id, b.channel, b.dbc_id, f.name as dbc_name, b.strategy_id, s.name as strategy_name, b.state, b.updated_at`;
const BINDING_FROM = `channel_dbc_bindings b join dbc_files f on f.id = b.dbc_id left join signal_strategies s on s.id = b.strategy_id`;

const like = (k?: string) => (k ? `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

/** SQL only; every query scoped by `auth.tenantId`. */
export function mappingRepository(raw: RawSql) {
  return {
    async listDbc(auth: Auth, offset: number, limit: number, keyword?: string) {
      const args = [auth.tenantId, like(keyword)];
      const where = `f.tenant_id = $1 and ($2::text is null or f.name ilike $2 or f.file_name ilike $2)`;
      const [count, { rows }] = await Promise.all([
        raw.query<{ n: number }>(`select count(*)::int as n from dbc_files f where ${where}`, args),
        raw.query<DbcRow>(`select ${DBC_COLS} from dbc_files f where ${where} order by f.created_at desc, f.id offset $3 limit $4`, [
          ...args,
          offset,
          limit,
        ]),
      ]);
      return { total: count.rows[0].n, rows };
    },

    async getDbc(auth: Auth, id: string): Promise<DbcRow | undefined> {
      const { rows } = await raw.query<DbcRow>(`select ${DBC_COLS} from dbc_files f where f.tenant_id = $1 and f.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0];
    },

    async dbcSummary(auth: Auth, id: string): Promise<DbcMessageInfo[] | undefined> {
      const { rows } = await raw.query<{ summary: DbcMessageInfo[] }>('select summary from dbc_files where tenant_id = $1 and id = $2', [
        auth.tenantId,
        id,
      ]);
      return rows[0]?.summary;
    },

    async dbcContent(auth: Auth, id: string): Promise<{ content: string; file_name: string } | undefined> {
      const { rows } = await raw.query<{ content: string; file_name: string }>(
        'select content, file_name from dbc_files where tenant_id = $1 and id = $2',
        [auth.tenantId, id],
      );
      return rows[0];
    },

    async dbcNameTaken(auth: Auth, name: string, exceptId?: string): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from dbc_files where tenant_id = $1 and name = $2 and id <> coalesce($3::uuid, gen_random_uuid())',
        [auth.tenantId, name, exceptId ?? null],
      );
      return rows.length > 0;
    },

    async insertDbc(auth: Auth, w: DbcWrite): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into dbc_files (tenant_id, name, protocol, file_name, content, size, message_count, signal_count, summary, warnings, created_by)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9::jsonb,$10::jsonb,$11) returning id`,
        [
          auth.tenantId,
          w.name,
          w.protocol,
          w.file_name,
          w.content,
          w.size,
          w.message_count,
          w.signal_count,
          typeof w.summary === 'string' ? w.summary : JSON.stringify(w.summary),
          JSON.stringify(w.warnings),
          auth.userId,
        ],
      );
      return rows[0].id;
    },

    async updateDbc(auth: Auth, id: string, w: Partial<DbcWrite>): Promise<void> {
      await raw.query(
        `update dbc_files set name = coalesce($3, name), protocol = coalesce($4, protocol), file_name = coalesce($5, file_name),
                content = coalesce($6, content), size = coalesce($7, size), message_count = coalesce($8, message_count),
                signal_count = coalesce($9, signal_count), summary = coalesce($10::jsonb, summary),
                warnings = coalesce($11::jsonb, warnings), updated_at = clock_timestamp()
          where tenant_id = $1 and id = $2`,
        [
          auth.tenantId,
          id,
          w.name ?? null,
          w.protocol ?? null,
          w.file_name ?? null,
          w.content ?? null,
          w.size ?? null,
          w.message_count ?? null,
          w.signal_count ?? null,
          w.summary ? (typeof w.summary === 'string' ? w.summary : JSON.stringify(w.summary)) : null,
          w.warnings ? JSON.stringify(w.warnings) : null,
        ],
      );
    },

    async deleteDbc(auth: Auth, id: string): Promise<void> {
      await raw.query('delete from dbc_files where tenant_id = $1 and id = $2', [auth.tenantId, id]);
    },

    /** Devices whose channels use the file, directly or through a strategy (bindings carry the file id either way). */
    async thingsUsingDbc(auth: Auth, dbcId: string): Promise<string[]> {
      const { rows } = await raw.query<{ things_id: string }>(
        'select distinct things_id from channel_dbc_bindings where tenant_id = $1 and dbc_id = $2',
        [auth.tenantId, dbcId],
      );
      return rows.map((r) => r.things_id);
    },

    async strategiesOfDbc(auth: Auth, dbcId: string): Promise<{ id: string; name: string; signals: StrategySignalRef[] }[]> {
      const { rows } = await raw.query<{ id: string; name: string; signals: StrategySignalRef[] }>(
        'select id, name, signals from signal_strategies where tenant_id = $1 and dbc_id = $2 order by name',
        [auth.tenantId, dbcId],
      );
      return rows;
    },

    async listStrategies(auth: Auth, offset: number, limit: number, keyword?: string, dbcId?: string) {
      const args = [auth.tenantId, like(keyword), dbcId ?? null];
      const where = `s.tenant_id = $1 and ($2::text is null or s.name ilike $2 or s.nickname ilike $2) and ($3::uuid is null or s.dbc_id = $3)`;
      const [count, { rows }] = await Promise.all([
        raw.query<{ n: number }>(`select count(*)::int as n from signal_strategies s where ${where}`, args),
        raw.query<StrategyRow>(
          `select ${STRATEGY_COLS} from signal_strategies s join dbc_files f on f.id = s.dbc_id
            where ${where} order by s.created_at desc, s.id offset $4 limit $5`,
          [...args, offset, limit],
        ),
      ]);
      return { total: count.rows[0].n, rows };
    },

    async getStrategy(auth: Auth, id: string): Promise<StrategyRow | undefined> {
      const { rows } = await raw.query<StrategyRow>(
        `select ${STRATEGY_COLS} from signal_strategies s join dbc_files f on f.id = s.dbc_id where s.tenant_id = $1 and s.id = $2`,
        [auth.tenantId, id],
      );
      return rows[0];
    },

    async strategyNameTaken(auth: Auth, name: string, exceptId?: string): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from signal_strategies where tenant_id = $1 and name = $2 and id <> coalesce($3::uuid, gen_random_uuid())',
        [auth.tenantId, name, exceptId ?? null],
      );
      return rows.length > 0;
    },

    async insertStrategy(
      auth: Auth,
      s: {
        name: string;
        nickname: string | null;
        description: string | null;
        dbc_id: string;
        signals: StrategySignalRef[];
        remark: string | null;
      },
    ): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into signal_strategies (tenant_id, name, nickname, description, dbc_id, signals, remark)
         values ($1,$2,$3,$4,$5,$6::jsonb,$7) returning id`,
        [auth.tenantId, s.name, s.nickname, s.description, s.dbc_id, JSON.stringify(s.signals), s.remark],
      );
      return rows[0].id;
    },

    async updateStrategy(
      auth: Auth,
      id: string,
      s: {
        name: string;
        nickname: string | null;
        description: string | null;
        dbc_id: string;
        signals: StrategySignalRef[];
        remark: string | null;
      },
    ): Promise<void> {
      await raw.query(
        `update signal_strategies set name = $3, nickname = $4, description = $5, dbc_id = $6, signals = $7::jsonb, remark = $8,
                updated_at = clock_timestamp()
          where tenant_id = $1 and id = $2`,
        [auth.tenantId, id, s.name, s.nickname, s.description, s.dbc_id, JSON.stringify(s.signals), s.remark],
      );
      // Channels bound through the strategy follow it to its (possibly new) file.
      await raw.query('update channel_dbc_bindings set dbc_id = $3, updated_at = now() where tenant_id = $1 and strategy_id = $2', [
        auth.tenantId,
        id,
        s.dbc_id,
      ]);
    },

    async deleteStrategy(auth: Auth, id: string): Promise<void> {
      await raw.query('delete from signal_strategies where tenant_id = $1 and id = $2', [auth.tenantId, id]);
    },

    async thingsUsingStrategy(auth: Auth, id: string): Promise<string[]> {
      const { rows } = await raw.query<{ things_id: string }>(
        'select distinct things_id from channel_dbc_bindings where tenant_id = $1 and strategy_id = $2',
        [auth.tenantId, id],
      );
      return rows.map((r) => r.things_id);
    },

    /** CAN channel count of the device's type. */
    async channelCount(auth: Auth, thingsId: string): Promise<number | undefined> {
      const { rows } = await raw.query<{ n: number }>(
        'select dt.can_channels as n from things t join device_types dt on dt.id = t.info_model_id where t.tenant_id = $1 and t.id = $2',
        [auth.tenantId, thingsId],
      );
      return rows[0]?.n;
    },

    async bindings(auth: Auth, thingsId: string): Promise<BindingRow[]> {
      const { rows } = await raw.query<BindingRow>(
        `select ${BINDING_COLS} from ${BINDING_FROM} where b.tenant_id = $1 and b.things_id = $2 order by b.channel`,
        [auth.tenantId, thingsId],
      );
      return rows;
    },

    async binding(auth: Auth, thingsId: string, channel: number): Promise<BindingRow | undefined> {
      const { rows } = await raw.query<BindingRow>(
        `select ${BINDING_COLS} from ${BINDING_FROM} where b.tenant_id = $1 and b.things_id = $2 and b.channel = $3`,
        [auth.tenantId, thingsId, channel],
      );
      return rows[0];
    },

    async upsertBinding(
      auth: Auth,
      thingsId: string,
      channel: number,
      dbcId: string,
      strategyId: string | null,
      state: number,
    ): Promise<void> {
      await raw.query(
        `insert into channel_dbc_bindings (tenant_id, things_id, channel, dbc_id, strategy_id, state) values ($1,$2,$3,$4,$5,$6)
         on conflict (things_id, channel) do update set dbc_id = excluded.dbc_id, strategy_id = excluded.strategy_id,
           state = excluded.state, updated_at = now()`,
        [auth.tenantId, thingsId, channel, dbcId, strategyId, state],
      );
    },

    async setState(auth: Auth, thingsId: string, channel: number, state: number): Promise<boolean> {
      const { rows } = await raw.query(
        'update channel_dbc_bindings set state = $4, updated_at = now() where tenant_id = $1 and things_id = $2 and channel = $3 returning 1',
        [auth.tenantId, thingsId, channel, state],
      );
      return rows.length > 0;
    },

    async deleteBinding(auth: Auth, thingsId: string, channel: number): Promise<boolean> {
      const { rows } = await raw.query(
        'delete from channel_dbc_bindings where tenant_id = $1 and things_id = $2 and channel = $3 returning 1',
        [auth.tenantId, thingsId, channel],
      );
      return rows.length > 0;
    },
  };
}

export type MappingRepository = ReturnType<typeof mappingRepository>;
