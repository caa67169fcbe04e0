import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { isSealed, type Sealer } from '../../lib/sealed-secrets.ts';

export interface ForwardRuleRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  status: number;
  device_scope: 'all' | 'group' | 'labels';
  group_id: string | null;
  label_ids: string[];
  data_kinds: string[];
  filter: Record<string, unknown>;
  destination_kind: string;
  destination: Record<string, unknown>;
  delivered: string;
  failed: string;
  dead_lettered: string;
  dropped: string;
  latency_sum_ms: string;
  last_latency_ms: number | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_delivered_at: Date | null;
  transform_plugin_id: string | null;
  filtered: string;
  pending: number;
  dead_letters: number;
  created_at: Date;
  updated_at: Date;
}

export interface RuleValues {
  name: string;
  description: string | null;
  device_scope: string;
  group_id: string | null;
  label_ids: string[];
  data_kinds: string[];
  filter: object;
  destination_kind: string;
  destination: object;
  transform_plugin_id: string | null;
}

/** A rule with messages to deliver, and its transform plugin's expression if it names one. */
export interface DeliverableRule {
  id: string;
  tenant_id: string;
  destination: Record<string, unknown>;
  updated_at: Date;
  transform: string | null;
}

export interface OutboxRow {
  id: string;
  things_id: string | null;
  kind: string;
  payload: { ts: number; third_things_id: string | null; data: unknown };
  created_at: Date;
  attempts: number;
  next_at: Date;
}

export interface NewMessage {
  ruleId: string;
  tenantId: string;
  thingsId: string | null;
  kind: string;
  payload: object;
}

/** A destination's fields that hold a credential (masked on reads, sealed at rest). */
export const SECRET_FIELDS = ['password', 'secret', 'token'] as const;

/**
 * Every credential of a destination through `f`: its secret fields, each header value (authorisation
 * tokens) and its URL (a password in it, or a webhook whose path or query is the credential).
 */
function mapSecrets(d: Record<string, unknown>, f: (v: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...d };
  for (const k of [...SECRET_FIELDS, 'url'] as const) if (typeof out[k] === 'string' && out[k]) out[k] = f(out[k] as string);
  if (out.headers && typeof out.headers === 'object')
    out.headers = Object.fromEntries(
      Object.entries(out.headers as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? f(v) : v]),
    );
  return out;
}

/** The destination as stored: its credentials sealed (docs/decisions/0191-secrets-at-rest.md). */
export const sealDestination = (d: object, s: Sealer) => mapSecrets(d as Record<string, unknown>, (v) => s.seal(v));
/** The destination as the services use it; a value stored before sealing (plain) is taken as it is. */
export const openDestination = (d: Record<string, unknown>, s: Sealer) => mapSecrets(d, (v) => s.open(v));
/** Whether a stored destination still has a credential in plain text. */
function hasPlain(d: Record<string, unknown>): boolean {
  let plain = false;
  mapSecrets(d, (v) => {
    if (v && !isSealed(v)) plain = true;
    return v;
  });
  return plain;
}

const COLS = `r.id, r.tenant_id, r.name, r.description, r.status, r.device_scope, r.group_id, r.label_ids, r.data_kinds, r.filter,
  r.destination_kind, r.destination, r.delivered, r.failed, r.dead_lettered, r.dropped, r.latency_sum_ms, r.last_latency_ms,
  r.last_error, r.last_error_at, r.last_delivered_at, r.created_at, r.updated_at, r.transform_plugin_id, r.filtered,
  (select count(*)::int from forward_outbox o where o.rule_id = r.id) as pending,
  (select count(*)::int from forward_dead_letters d where d.rule_id = r.id) as dead_letters`;

/**
 * Things-forward rules, their outbox and dead letters. Rule reads and writes are scoped by
 * `auth.tenantId`. A destination's credentials are sealed on write and opened on read: the services
 * only see plain values.
 */
export function forwardRepository(raw: RawSql, secrets: Sealer) {
  const opened = <T extends { destination: Record<string, unknown> }>(r: T): T => ({
    ...r,
    destination: openDestination(r.destination, secrets),
  });
  return {
    async page(auth: Auth, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'r.tenant_id = $1';
      if (keyword) where += ` and strpos(lower(r.name), lower($${params.push(keyword)})) > 0`;
      const { rows } = await raw.query<ForwardRuleRow>(
        `select ${COLS} from forward_rules r where ${where} order by r.created_at desc, r.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from forward_rules r where ${where}`, params);
      return { rows: rows.map(opened), total: c.rows[0].n };
    },

    async get(auth: Auth, id: string): Promise<ForwardRuleRow | null> {
      const { rows } = await raw.query<ForwardRuleRow>(`select ${COLS} from forward_rules r where r.tenant_id = $1 and r.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ? opened(rows[0]) : null;
    },

    async byName(auth: Auth, name: string): Promise<{ id: string } | null> {
      const { rows } = await raw.query<{ id: string }>('select id from forward_rules where tenant_id = $1 and name = $2', [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async count(auth: Auth): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from forward_rules where tenant_id = $1', [auth.tenantId]);
      return rows[0].n;
    },

    async insert(auth: Auth, v: RuleValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into forward_rules (tenant_id, name, description, device_scope, group_id, label_ids, data_kinds, filter,
           destination_kind, destination, created_by, transform_plugin_id)
         values ($1,$2,$3,$4,$5,$6::jsonb,$7::jsonb,$8::jsonb,$9,$10::jsonb,$11,$12) returning id`,
        [
          auth.tenantId,
          v.name,
          v.description,
          v.device_scope,
          v.group_id,
          JSON.stringify(v.label_ids),
          JSON.stringify(v.data_kinds),
          JSON.stringify(v.filter),
          v.destination_kind,
          JSON.stringify(sealDestination(v.destination, secrets)),
          auth.userId,
          v.transform_plugin_id,
        ],
      );
      return rows[0].id;
    },

    /** A changed rule (a destination fixed) retries its waiting messages at once, keeping their try counts. */
    async retryNow(auth: Auth, id: string): Promise<void> {
      await raw.query('update forward_outbox set next_at = now() where rule_id = $1 and tenant_id = $2 and next_at > now()', [
        id,
        auth.tenantId,
      ]);
    },

    async update(auth: Auth, id: string, v: RuleValues): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>(
        `update forward_rules set name = $3, description = $4, device_scope = $5, group_id = $6, label_ids = $7::jsonb,
           data_kinds = $8::jsonb, filter = $9::jsonb, destination_kind = $10, destination = $11::jsonb, transform_plugin_id = $12,
           updated_at = now()
         where tenant_id = $1 and id = $2 returning id`,
        [
          auth.tenantId,
          id,
          v.name,
          v.description,
          v.device_scope,
          v.group_id,
          JSON.stringify(v.label_ids),
          JSON.stringify(v.data_kinds),
          JSON.stringify(v.filter),
          v.destination_kind,
          JSON.stringify(sealDestination(v.destination, secrets)),
          v.transform_plugin_id,
        ],
      );
      return rows.length > 0;
    },

    /**
     * Seals the credentials of rules stored before sealing existed; returns how many rules changed. A
     * rule changed meanwhile (its destination no longer the one read) is left to its own write.
     */
    async sealStored(): Promise<number> {
      const { rows } = await raw.query<{ id: string; destination: Record<string, unknown> }>('select id, destination from forward_rules');
      let n = 0;
      for (const r of rows) {
        if (!hasPlain(r.destination)) continue;
        const sealed = sealDestination(r.destination, secrets);
        const res = await raw.query(
          'update forward_rules set destination = $2::jsonb where id = $1 and destination = $3::jsonb returning id',
          [r.id, JSON.stringify(sealed), JSON.stringify(r.destination)],
        );
        n += res.rows.length;
      }
      return n;
    },

    async setStatus(auth: Auth, id: string, status: number): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>(
        'update forward_rules set status = $3, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [auth.tenantId, id, status],
      );
      return rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>('delete from forward_rules where tenant_id = $1 and id = $2 returning id', [
        auth.tenantId,
        id,
      ]);
      return rows.length > 0;
    },

    async groupExists(auth: Auth, groupId: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from device_groups where tenant_id = $1 and id = $2', [auth.tenantId, groupId]);
      return rows.length > 0;
    },

    async knownLabels(auth: Auth, ids: string[]): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from tenant_labels where tenant_id = $1 and id = any($2::uuid[])',
        [auth.tenantId, ids],
      );
      return rows[0].n;
    },

    // ---- capture (by tenant, from the ingest events) ----

    /** The tenant's rules that capture (enabled or paused). */
    async capturing(tenantId: string) {
      const { rows } = await raw.query<Pick<ForwardRuleRow, 'id' | 'device_scope' | 'group_id' | 'label_ids' | 'data_kinds' | 'filter'>>(
        `select id, device_scope, group_id, label_ids, data_kinds, filter from forward_rules where tenant_id = $1 and status in (1, 2)`,
        [tenantId],
      );
      return rows;
    },

    /** The tenant's devices: third-party id, labels and groups (what rules select by). */
    async devices(tenantId: string) {
      const { rows } = await raw.query<{
        id: string;
        third_things_id: string | null;
        label_ids: string[] | null;
        group_ids: string[] | null;
      }>(
        `select t.id, t.third_things_id,
           (select array_agg(e.l ->> 'tenantLabelId') from jsonb_array_elements(case when jsonb_typeof(t.labels) = 'array' then t.labels else '[]'::jsonb end) e(l)) as label_ids,
           (select array_agg(g.group_id::text) from device_group_things g where g.things_id = t.id) as group_ids
         from things t where t.tenant_id = $1`,
        [tenantId],
      );
      return rows;
    },

    /** Up to `limit` messages of a rule, counted (for the queue's bound). */
    async pendingUpTo(ruleId: string, limit: number): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from (select 1 from forward_outbox where rule_id = $1 limit $2) q',
        [ruleId, limit],
      );
      return rows[0].n;
    },

    async enqueue(list: readonly NewMessage[], at: Date): Promise<void> {
      if (!list.length) return;
      const values: unknown[] = [];
      const rows = list.map((m) => {
        const b = values.push(m.ruleId, m.tenantId, m.thingsId, m.kind, JSON.stringify(m.payload)) - 5;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4},$${b + 5}::jsonb,$${list.length * 5 + 1},$${list.length * 5 + 1})`;
      });
      values.push(at);
      await raw.query(
        `insert into forward_outbox (rule_id, tenant_id, things_id, kind, payload, created_at, next_at) values ${rows.join(',')}`,
        values,
      );
    },

    async addDropped(ruleId: string, n: number): Promise<void> {
      await raw.query('update forward_rules set dropped = dropped + $2 where id = $1', [ruleId, n]);
    },

    // ---- delivery ----

    /** Enabled rules with messages waiting. */
    async deliverable(): Promise<DeliverableRule[]> {
      const { rows } = await raw.query<DeliverableRule>(
        `select r.id, r.tenant_id, r.destination, greatest(r.updated_at, p.updated_at) as updated_at, p.expression as transform
         from forward_rules r left join data_plugins p on p.id = r.transform_plugin_id and p.tenant_id = r.tenant_id
         where r.status = 1 and exists (select 1 from forward_outbox o where o.rule_id = r.id)`,
      );
      return rows.map(opened);
    },

    /** Holds the rule for `owner` until `until` unless another copy holds it. */
    async lease(ruleId: string, owner: string, now: Date, until: Date): Promise<boolean> {
      const { rows } = await raw.query(
        `update forward_rules set lease_owner = $2, lease_until = $4
         where id = $1 and status = 1 and (lease_owner = $2 or lease_until is null or lease_until < $3) returning id`,
        [ruleId, owner, now, until],
      );
      return rows.length > 0;
    },

    async release(ruleId: string, owner: string): Promise<void> {
      await raw.query('update forward_rules set lease_until = null where id = $1 and lease_owner = $2', [ruleId, owner]);
    },

    async head(ruleId: string, limit: number): Promise<OutboxRow[]> {
      const { rows } = await raw.query<OutboxRow>(
        'select id::text as id, things_id, kind, payload, created_at, attempts, next_at from forward_outbox where rule_id = $1 order by id limit $2',
        [ruleId, limit],
      );
      return rows;
    },

    async delivered(ruleId: string, ids: string[], latencySumMs: number, lastLatencyMs: number, at: Date): Promise<void> {
      await raw.transaction(async (tx) => {
        await tx.query('delete from forward_outbox where id = any($1::bigint[])', [ids]);
        await tx.query(
          `update forward_rules set delivered = delivered + $2, latency_sum_ms = latency_sum_ms + $3, last_latency_ms = $4,
             last_delivered_at = $5 where id = $1`,
          [ruleId, ids.length, Math.round(latencySumMs), Math.round(lastLatencyMs), at],
        );
      });
    },

    /** Messages the rule's transform plugin dropped: out of the outbox, counted. */
    async filtered(ruleId: string, ids: string[]): Promise<void> {
      await raw.transaction(async (tx) => {
        await tx.query('delete from forward_outbox where id = any($1::bigint[])', [ids]);
        await tx.query('update forward_rules set filtered = filtered + $2 where id = $1', [ruleId, ids.length]);
      });
    },

    /** The type of a plugin of the tenant, or null when it has none of this id. */
    async pluginType(auth: Auth, id: string): Promise<string | null> {
      const { rows } = await raw.query<{ type: string }>('select type from data_plugins where tenant_id = $1 and id = $2', [
        auth.tenantId,
        id,
      ]);
      return rows[0]?.type ?? null;
    },

    /** A failed round: `retry` rows wait until their time, `dead` rows move to the dead letters. */
    async failed(
      ruleId: string,
      retry: { id: string; attempts: number; at: Date }[],
      dead: { id: string; attempts: number }[],
      error: string,
      at: Date,
    ): Promise<void> {
      await raw.transaction(async (tx) => {
        if (retry.length)
          await tx.query(
            `update forward_outbox o set attempts = v.attempts, next_at = v.at, last_error = $4
             from unnest($1::bigint[], $2::int[], $3::timestamptz[]) as v(id, attempts, at) where o.id = v.id`,
            [retry.map((r) => r.id), retry.map((r) => r.attempts), retry.map((r) => r.at), error],
          );
        if (dead.length) {
          await tx.query(
            `insert into forward_dead_letters (rule_id, tenant_id, things_id, kind, payload, created_at, failed_at, attempts, error)
             select o.rule_id, o.tenant_id, o.things_id, o.kind, o.payload, o.created_at, $3, v.attempts, $4
             from forward_outbox o join unnest($1::bigint[], $2::int[]) as v(id, attempts) on o.id = v.id order by o.id`,
            [dead.map((r) => r.id), dead.map((r) => r.attempts), at, error],
          );
          await tx.query('delete from forward_outbox where id = any($1::bigint[])', [dead.map((r) => r.id)]);
        }
        await tx.query(
          `update forward_rules set failed = failed + $2, dead_lettered = dead_lettered + $3, last_error = $4, last_error_at = $5
           where id = $1`,
          [ruleId, retry.length + dead.length, dead.length, error, at],
        );
      });
    },

    // ---- dead letters (scoped by tenant through the rule) ----

    async deadLetters(auth: Auth, ruleId: string, offset: number, limit: number) {
      const { rows } = await raw.query<{
        id: string;
        rule_id: string;
        things_id: string | null;
        kind: string;
        payload: unknown;
        attempts: number;
        error: string | null;
        created_at: Date;
        failed_at: Date;
      }>(
        `select id::text as id, rule_id, things_id, kind, payload, attempts, error, created_at, failed_at from forward_dead_letters
         where tenant_id = $1 and rule_id = $2 order by id limit $3 offset $4`,
        [auth.tenantId, ruleId, limit, offset],
      );
      const c = await raw.query<{ n: number }>(
        'select count(*)::int as n from forward_dead_letters where tenant_id = $1 and rule_id = $2',
        [auth.tenantId, ruleId],
      );
      return { rows, total: c.rows[0].n };
    },

    /** Dead letters back into the outbox, in their order, after what is queued; returns how many. */
    async replay(auth: Auth, ruleId: string, ids: string[] | null, at: Date): Promise<number> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `with picked as (
             delete from forward_dead_letters where tenant_id = $1 and rule_id = $2 and ($3::bigint[] is null or id = any($3::bigint[]))
             returning id, rule_id, tenant_id, things_id, kind, payload)
           insert into forward_outbox (rule_id, tenant_id, things_id, kind, payload, created_at, next_at)
           select rule_id, tenant_id, things_id, kind, payload, $4, $4 from picked order by id returning id`,
          [auth.tenantId, ruleId, ids, at],
        );
        return rows.length;
      });
    },

    async discard(auth: Auth, ruleId: string, ids: string[] | null): Promise<number> {
      const { rows } = await raw.query<{ id: string }>(
        `delete from forward_dead_letters where tenant_id = $1 and rule_id = $2 and ($3::bigint[] is null or id = any($3::bigint[])) returning id`,
        [auth.tenantId, ruleId, ids],
      );
      return rows.length;
    },
  };
}
export type ForwardRepository = ReturnType<typeof forwardRepository>;
