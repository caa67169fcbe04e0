import crypto from 'node:crypto';
import { API_KEY_PREFIX, type ApiKey, type ApiKeyInput, GRANTABLE_KEYS } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, forbidden } from '../../lib/errors.ts';
import { deviceAccess } from '../things/things.access.ts';
import { type ApiKeyRow, apiKeyRepository } from './apikey.repository.ts';

/** Characters of the token after `lhk_` that find the key (public); the rest is the secret. */
const PREFIX_LEN = 12;
/** Keys that manage keys are never given to a key. */
const KEY_MANAGEMENT = /^control:api-key:/;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

function toKey(r: ApiKeyRow): ApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: `${API_KEY_PREFIX}${r.prefix}`,
    permissions: r.permissions,
    things_ids: r.things_ids,
    created_by: r.created_by,
    created_by_name: r.created_by_name,
    expires_at: ms(r.expires_at),
    revoked_at: ms(r.revoked_at),
    last_used_at: ms(r.last_used_at),
    last_used_ip: r.last_used_ip,
    created_at: ms(r.created_at) ?? 0,
  };
}

/**
 * Tenant API keys for machines (docs/decisions/0138-api-keys.md). A token is `lhk_` + 12 public
 * characters that find the key + 43 secret ones; only its SHA-256 is stored (the token is 256 random
 * bits, so a fast hash suffices where a password needs bcrypt). A call with it acts with the key's
 * permission keys narrowed to its creator's current ones, on its devices, as its creator.
 */
export function apiKeyService(deps: { raw: RawSql; loadGrants: (userId: string) => Promise<ReadonlySet<string>>; now?: () => number }) {
  const repo = apiKeyRepository(deps.raw);
  const now = deps.now ?? Date.now;
  const grantable = new Set(GRANTABLE_KEYS);
  const mine = (auth: Auth) => (auth.isManager || auth.systemManager ? null : auth.userId);

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number }) {
      const { total, rows } = await repo.list(auth.tenantId, mine(auth), q.page_size, (q.current_page - 1) * q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toKey) };
    },

    async create(auth: Auth, body: ApiKeyInput) {
      if (auth.apiKey) throw forbidden('An API key cannot create keys');
      const permissions = [...new Set(body.permissions)];
      const held = (k: string) => auth.isManager || auth.systemManager || auth.grants?.has(k) === true;
      const bad = permissions.find((k) => !grantable.has(k) || KEY_MANAGEMENT.test(k) || !held(k));
      if (bad) throw badRequest('api-key.bad-permission', `Not a key this key may hold: ${bad}`, 'permissions');
      if (body.expires_at !== undefined && body.expires_at !== null && body.expires_at <= now())
        throw badRequest('api-key.bad-expiry', undefined, 'expires_at');
      // A scope holds the creator's own access on each device (404 for one it cannot see).
      const devices = body.things_ids
        ? await Promise.all(
            [...new Set(body.things_ids)].map(async (thingsId) => ({ thingsId, access: await deviceAccess(deps.raw, auth, thingsId) })),
          )
        : null;
      const prefix = crypto.randomBytes(9).toString('base64url').slice(0, PREFIX_LEN);
      const token = `${API_KEY_PREFIX}${prefix}${crypto.randomBytes(32).toString('base64url')}`;
      const id = await repo.insert({
        tenantId: auth.tenantId,
        name: body.name,
        prefix,
        secretHash: sha256(token),
        permissions,
        devices,
        createdBy: auth.userId,
        expiresAt: body.expires_at ? new Date(body.expires_at) : null,
      });
      return { ...toKey((await repo.get(auth.tenantId, id)) as ApiKeyRow), token };
    },

    async revoke(auth: Auth, id: string) {
      if (!(await repo.revoke(auth.tenantId, id, mine(auth)))) throw ApiError.of('api-key.not-found');
      return { ok: true as const };
    },

    /** The caller a token stands for, or null (unknown, wrong secret, revoked, expired, creator or tenant disabled). */
    async authenticate(token: string, ip: string): Promise<Auth | null> {
      if (!token.startsWith(API_KEY_PREFIX)) return null;
      const k = await repo.byPrefix(token.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + PREFIX_LEN));
      if (!k) return null;
      const given = Buffer.from(sha256(token), 'hex');
      const stored = Buffer.from(k.secret_hash, 'hex');
      if (given.length !== stored.length || !crypto.timingSafeEqual(given, stored)) return null;
      if (k.revoked_at || (k.expires_at && k.expires_at.getTime() <= now())) return null;
      if (k.creator_status !== 1 || k.tenant_status !== 1) return null;
      // Never more than the creator holds now: a sub-user's grants may have shrunk since.
      const creatorKeys = k.creator_is_manager ? null : await deps.loadGrants(k.created_by);
      const permissions = new Set(k.permissions.filter((p) => creatorKeys === null || creatorKeys.has(p)));
      await repo.touch(k.id, ip);
      const scoped = k.machine_user_id !== null;
      return {
        // A scoped key reaches devices through its machine account's grants; an unscoped one as its creator.
        userId: scoped ? (k.machine_user_id as string) : k.created_by,
        tenantId: k.tenant_id,
        username: `${k.creator_username}#${k.name}`,
        sessionId: `api-key:${k.id}`,
        isManager: !scoped && k.creator_is_manager,
        systemManager: false,
        grants: permissions,
        readOnly: k.creator_is_demo,
        apiKey: { id: k.id, name: k.name, permissions },
      };
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
