import type { CommandState } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface CommandRow {
  id: string;
  tenant_id: string;
  things_id: string;
  correlation_id: string;
  operation_name: string;
  operation_params: Record<string, unknown>;
  description: string | null;
  envelope: Record<string, unknown>;
  state: CommandState;
  code: number | null;
  message: string | null;
  result: unknown;
  progress: number | null;
  timeout_ms: number;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  answered_at: Date | null;
  deadline_at: Date;
}

export interface ResponseRow {
  id: number;
  correlation_id: string;
  things_id: string;
  code: number;
  message: string | null;
  payload: unknown;
  partial: boolean;
  received_at: Date;
}

/** The device a command goes to: its wire identity and whether it is online now. */
export interface TargetRow {
  id: string;
  tenant_id: string;
  third_things_id: string;
  info_model_id: string;
  thing_type: number;
  is_online: boolean;
  type_name: string;
  type_description: string | null;
}

const COLS = `id, tenant_id, things_id, correlation_id, operation_name, operation_params, description, envelope, state, code, message,
  result, progress, timeout_ms, created_at, sent_at, delivered_at, answered_at, deadline_at`;

/**
 * SQL only. Calls made for a user are scoped by its tenant; calls made for a device (responses,
 * acknowledgements, the sweeper) are scoped by the device the broker authenticated.
 */
export function commandRepository(raw: RawSql) {
  return {
    async target(tenantId: string, thingsId: string): Promise<TargetRow | null> {
      const { rows } = await raw.query<TargetRow>(
        `select t.id, t.tenant_id, t.third_things_id, t.info_model_id, t.thing_type, t.is_online,
                d.name as type_name, d.description as type_description
           from things t join device_types d on d.id = t.info_model_id
          where t.id = $1 and t.tenant_id = $2`,
        [thingsId, tenantId],
      );
      return rows[0] ?? null;
    },

    async insert(c: {
      tenantId: string;
      thingsId: string;
      correlationId: string;
      operation: string;
      params: Record<string, unknown>;
      description: string | null;
      headers: Record<string, string>;
      envelope: Record<string, unknown>;
      timeoutMs: number;
      expiresAt: Date;
      createdBy: string | null;
    }): Promise<CommandRow> {
      const { rows } = await raw.query<CommandRow>(
        `insert into device_commands (tenant_id, things_id, correlation_id, operation_name, operation_params, description, headers,
                                      envelope, state, timeout_ms, created_by, deadline_at)
         values ($1,$2,$3,$4,$5::jsonb,$6,$7::jsonb,$8::jsonb,'queued',$9,$10,$11) returning ${COLS}`,
        [
          c.tenantId,
          c.thingsId,
          c.correlationId,
          c.operation,
          JSON.stringify(c.params),
          c.description,
          JSON.stringify(c.headers),
          JSON.stringify(c.envelope),
          c.timeoutMs,
          c.createdBy,
          c.expiresAt,
        ],
      );
      return rows[0];
    },

    /** Claims the queued commands of a device for sending (oldest first); only one server copy gets each. */
    /** What is queued for several devices, claimed in one statement (a fleet coming online at once). */
    async claimQueuedMany(thingsIds: string[]): Promise<CommandRow[]> {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = 'sent', sent_at = now(), deadline_at = now() + timeout_ms * interval '1 millisecond',
                updated_at = now()
          where things_id = any($1::uuid[]) and state = 'queued' and deadline_at > now()
          returning ${COLS}`,
        [thingsIds],
      );
      return rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at));
    },

    async claimQueued(thingsId: string, ids?: string[]): Promise<CommandRow[]> {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = 'sent', sent_at = now(), deadline_at = now() + timeout_ms * interval '1 millisecond',
                updated_at = now()
          where things_id = $1 and state = 'queued' and deadline_at > now() and ($2::uuid[] is null or id = any($2::uuid[]))
          returning ${COLS}`,
        [thingsId, ids ?? null],
      );
      return rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at));
    },

    /** A send that failed goes back to the queue (the sweeper retries while the device is online). */
    async unsend(id: string) {
      await raw.query(`update device_commands set state = 'queued', sent_at = null, updated_at = now() where id = $1 and state = 'sent'`, [
        id,
      ]);
    },

    async delivered(thingsId: string, correlationId: string): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = 'delivered', delivered_at = now(), updated_at = now()
          where things_id = $1 and correlation_id = $2 and state = 'sent' returning ${COLS}`,
        [thingsId, correlationId],
      );
      return rows[0] ?? null;
    },

    async byCorrelation(thingsId: string, correlationId: string): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(`select ${COLS} from device_commands where things_id = $1 and correlation_id = $2`, [
        thingsId,
        correlationId,
      ]);
      return rows[0] ?? null;
    },

    async get(tenantId: string, thingsId: string, correlationId: string): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(
        `select ${COLS} from device_commands where tenant_id = $1 and things_id = $2 and correlation_id = $3`,
        [tenantId, thingsId, correlationId],
      );
      return rows[0] ?? null;
    },

    async getById(tenantId: string, id: string): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(`select ${COLS} from device_commands where tenant_id = $1 and id = $2`, [tenantId, id]);
      return rows[0] ?? null;
    },

    async page(
      tenantId: string,
      thingsId: string,
      q: { current_page: number; page_size: number; correlation_id?: string; operation_name?: string; state?: string },
    ) {
      const where = `tenant_id = $1 and things_id = $2 and ($3::text is null or correlation_id = $3)
        and ($4::text is null or operation_name = $4) and ($5::text is null or state = $5)`;
      const params = [tenantId, thingsId, q.correlation_id ?? null, q.operation_name ?? null, q.state ?? null];
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from device_commands where ${where}`, params);
      const { rows } = await raw.query<CommandRow>(
        `select ${COLS} from device_commands where ${where} order by created_at desc, id limit $6 offset $7`,
        [...params, q.page_size, (q.current_page - 1) * q.page_size],
      );
      return { total: total.rows[0].n, rows };
    },

    async addResponse(
      d: { tenantId: string; thingsId: string },
      r: { correlationId: string; code: number; message: string | null; payload: unknown; partial: boolean },
    ) {
      await raw.query(
        `insert into device_command_responses (tenant_id, things_id, correlation_id, code, message, payload, partial)
         values ($1,$2,$3,$4,$5,$6::jsonb,$7)`,
        [d.tenantId, d.thingsId, r.correlationId, r.code, r.message, r.payload === undefined ? null : JSON.stringify(r.payload), r.partial],
      );
    },

    /** A progress report: the command is alive, its deadline moves on. */
    async progress(id: string, progress: number | null, result: unknown): Promise<CommandRow | null> {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = 'delivered', delivered_at = coalesce(delivered_at, now()), progress = coalesce($2, progress),
                result = $3::jsonb, deadline_at = now() + timeout_ms * interval '1 millisecond', updated_at = now()
          where id = $1 and state in ('queued','sent','delivered') returning ${COLS}`,
        [id, progress, result === undefined ? null : JSON.stringify(result)],
      );
      return rows[0] ?? null;
    },

    async finish(id: string, f: { state: CommandState; code: number | null; message: string | null; result?: unknown }) {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = $2, code = $3, message = $4, result = coalesce($5::jsonb, result),
                answered_at = case when $2 in ('answered','failed') then now() else answered_at end,
                delivered_at = case when $2 in ('answered','failed') then coalesce(delivered_at, now()) else delivered_at end,
                progress = case when $2 = 'answered' then 100 else progress end, updated_at = now()
          where id = $1 and state in ('queued','sent','delivered') returning ${COLS}`,
        [id, f.state, f.code, f.message, f.result === undefined ? null : JSON.stringify(f.result)],
      );
      return rows[0] ?? null;
    },

    /** Sent commands past their deadline time out; queued ones past theirs expire. */
    async sweep(): Promise<CommandRow[]> {
      const { rows } = await raw.query<CommandRow>(
        `update device_commands set state = case when state = 'queued' then 'expired' else 'timeout' end,
                message = case when state = 'queued' then 'expired before the device came online' else 'no answer from the device in time' end,
                updated_at = now()
          where state in ('queued','sent','delivered') and deadline_at <= now() returning ${COLS}`,
      );
      return rows;
    },

    /** Devices online now that have queued commands. */
    async onlineWithQueued(): Promise<{ things_id: string; third_things_id: string }[]> {
      const { rows } = await raw.query<{ things_id: string; third_things_id: string }>(
        `select distinct c.things_id, t.third_things_id from device_commands c join things t on t.id = c.things_id
          where c.state = 'queued' and t.is_online and c.deadline_at > now()`,
      );
      return rows;
    },

    async responses(
      tenantId: string,
      user: string | null,
      q: { thingsId?: string; ids: string[] | null; startDate: Date | null; offset: number; limit: number },
    ) {
      const where = `r.tenant_id = $1 and ($2::uuid is null or r.things_id = $2) and ($3::text[] is null or r.correlation_id = any($3::text[]))
        and ($4::timestamptz is null or r.received_at >= $4)
        and ($5::uuid is null or exists (select 1 from user_device_access a where a.user_id = $5 and a.things_id = r.things_id))`;
      const params = [tenantId, q.thingsId ?? null, q.ids, q.startDate, user];
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from device_command_responses r where ${where}`, params);
      const { rows } = await raw.query<ResponseRow>(
        `select r.id, r.correlation_id, r.things_id, r.code, r.message, r.payload, r.partial, r.received_at
           from device_command_responses r where ${where} order by r.id limit $6 offset $7`,
        [...params, q.limit, q.offset],
      );
      return { total: total.rows[0].n, rows };
    },
  };
}

export type CommandRepository = ReturnType<typeof commandRepository>;
