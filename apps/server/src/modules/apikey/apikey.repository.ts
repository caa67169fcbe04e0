import type { RawSql } from '../../db/client.ts';

export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  permissions: string[];
  things_ids: string[] | null;
  machine_user_id: string | null;
  created_by: string;
  created_by_name: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_at: Date;
}

/** A key found by its token's prefix, with what decides whether it may still be used. */
export interface ApiKeyUse extends ApiKeyRow {
  creator_username: string;
  creator_is_manager: boolean;
  creator_status: number;
  creator_is_demo: boolean;
  tenant_status: number;
}

const COLS = `k.id, k.tenant_id, k.name, k.prefix, k.secret_hash, k.permissions, k.things_ids, k.machine_user_id, k.created_by,
  u.username as created_by_name, k.expires_at, k.revoked_at, k.last_used_at, k.last_used_ip, k.created_at`;

/** SQL of tenant API keys; every tenant query scoped by its tenant. */
export function apiKeyRepository(raw: RawSql) {
  return {
    /**
     * Stores a key; a key limited to devices gets its machine account (users.machine) whose device
     * grants are the scope, in the same transaction.
     */
    async insert(k: {
      tenantId: string;
      name: string;
      prefix: string;
      secretHash: string;
      permissions: string[];
      devices: { thingsId: string; access: 'read' | 'write' }[] | null;
      createdBy: string;
      expiresAt: Date | null;
    }): Promise<string> {
      return raw.transaction(async (tx) => {
        let machine: string | null = null;
        if (k.devices) {
          const u = await tx.query<{ id: string }>(
            `insert into users (tenant_id, username, name, password_hash, machine, status) values ($1, $2, $3, '!', true, 1) returning id`,
            [k.tenantId, `~api-key-${k.prefix}`, k.name],
          );
          machine = u.rows[0].id;
          await tx.query(
            `insert into user_device_grants (user_id, tenant_id, things_id, access)
             select $1, $2, x.id, x.access from unnest($3::uuid[], $4::text[]) as x(id, access)`,
            [machine, k.tenantId, k.devices.map((d) => d.thingsId), k.devices.map((d) => d.access)],
          );
        }
        const { rows } = await tx.query<{ id: string }>(
          `insert into api_keys (tenant_id, name, prefix, secret_hash, permissions, things_ids, machine_user_id, created_by, expires_at)
           values ($1, $2, $3, $4, $5::text[], $6::uuid[], $7, $8, $9) returning id`,
          [
            k.tenantId,
            k.name,
            k.prefix,
            k.secretHash,
            k.permissions,
            k.devices ? k.devices.map((d) => d.thingsId) : null,
            machine,
            k.createdBy,
            k.expiresAt,
          ],
        );
        return rows[0].id;
      });
    },

    async get(tenantId: string, id: string): Promise<ApiKeyRow | null> {
      const { rows } = await raw.query<ApiKeyRow>(
        `select ${COLS} from api_keys k left join users u on u.id = k.created_by where k.tenant_id = $1 and k.id = $2`,
        [tenantId, id],
      );
      return rows[0] ?? null;
    },

    /** The tenant's keys, or only those `createdBy` made. */
    async list(tenantId: string, createdBy: string | null, limit: number, offset: number) {
      const total = await raw.query<{ n: number }>(
        'select count(*)::int as n from api_keys where tenant_id = $1 and ($2::uuid is null or created_by = $2)',
        [tenantId, createdBy],
      );
      const { rows } = await raw.query<ApiKeyRow>(
        `select ${COLS} from api_keys k left join users u on u.id = k.created_by
          where k.tenant_id = $1 and ($2::uuid is null or k.created_by = $2)
          order by k.created_at desc, k.id limit $3 offset $4`,
        [tenantId, createdBy, limit, offset],
      );
      return { total: total.rows[0].n, rows };
    },

    /** Revokes a key (of `createdBy` only, when given) and ends its machine account. */
    async revoke(tenantId: string, id: string, createdBy: string | null): Promise<boolean> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ machine_user_id: string | null }>(
          `update api_keys set revoked_at = coalesce(revoked_at, now())
            where tenant_id = $1 and id = $2 and ($3::uuid is null or created_by = $3) returning machine_user_id`,
          [tenantId, id, createdBy],
        );
        if (!rows.length) return false;
        if (rows[0].machine_user_id) await tx.query('update users set status = 0 where id = $1 and machine', [rows[0].machine_user_id]);
        return true;
      });
    },

    async byPrefix(prefix: string): Promise<ApiKeyUse | null> {
      const { rows } = await raw.query<ApiKeyUse>(
        `select ${COLS}, u.username as creator_username, u.is_manager as creator_is_manager, u.status as creator_status,
                t.is_demo as creator_is_demo, t.status as tenant_status
           from api_keys k join users u on u.id = k.created_by join tenants t on t.id = k.tenant_id
          where k.prefix = $1`,
        [prefix],
      );
      return rows[0] ?? null;
    },

    async touch(id: string, ip: string): Promise<void> {
      await raw.query('update api_keys set last_used_at = now(), last_used_ip = $2 where id = $1', [id, ip]);
    },
  };
}
