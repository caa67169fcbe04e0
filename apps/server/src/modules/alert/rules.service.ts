import { compileDbc, parseDbc } from '@loggerhead/can';
import {
  type AlertCode,
  ErrorCodes,
  type TriggerRule,
  type TriggerRuleImportResult,
  TriggerRuleInputSchema,
  type TriggerRuleValues,
} from '@loggerhead/contract';
import type { z } from 'zod';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { QuotaService } from '../billing/quota.service.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import type { RuleFilter, RuleRow, RulesRepository, RuleWrite } from './rules.repository.ts';

export const alertError = (status: number, code: AlertCode, message?: string, field?: string) =>
  new ApiError(status, code, message, field ? { field } : undefined);

export function toTriggerRule(r: RuleRow): TriggerRule {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    owner_id: r.owner_id,
    owner_name: r.owner_name,
    things_id: r.things_id,
    things_name: r.things_name,
    name: r.name,
    data_type: r.data_type,
    channel: r.channel === null ? null : Number(r.channel),
    frame_format: r.frame_format,
    frame_type: r.frame_type,
    frame_id: r.frame_id === null ? null : Number(r.frame_id),
    conditions: r.conditions,
    condition_join: r.condition_join,
    status: Number(r.status) as 0 | 1,
    level: r.level,
    share: r.share,
    description: r.description,
    alert_description: r.alert_description,
    actions: r.actions,
    frequency: r.frequency,
    recover_action: r.recover_action,
    fence_id: r.fence_id,
    fence_rule: r.fence_rule,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** The fields an export file carries: what `create` takes again. */
function exportable(r: TriggerRule) {
  const { id, tenant_id, owner_id, owner_name, things_name, created_at, updated_at, ...rest } = r;
  return rest;
}

function zodToApi(err: z.ZodError): ApiError {
  return ApiError.many(
    400,
    err.issues.map((i) => {
      const field = i.path.join('.');
      return { code: 'http.400', message: `${field ? `${field}: ` : ''}${i.message}`, field: field || undefined };
    }),
  );
}

export interface RulesDeps {
  raw: RawSql;
  repo: RulesRepository;
  quota: QuotaService;
  events: EventBus;
}

/** Trigger rules CRUD, status, import and export (spec §3, §5, §8, §9). */
export function rulesService(deps: RulesDeps) {
  const { raw, repo, quota, events } = deps;

  const changed = (tenantId: string, thingsId: string) => events.emit('alert.rules-changed', { tenantId, thingsId });

  /** Database checks beyond the schema: device access, channel, DBC signal, fence binding. */
  async function resolve(auth: Auth, v: TriggerRuleValues): Promise<RuleWrite> {
    await requireDevice(raw, auth, v.things_id, 'write');
    const out: RuleWrite = { ...v };
    if (v.data_type === 'fence') {
      const fence = await repo.fenceBinding(auth, v.fence_id as string, v.things_id);
      if (!fence.exists) throw alertError(404, 'alert.unknown-fence', undefined, 'fence_id');
      if (!fence.bound) throw alertError(400, 'alert.fence-not-bound', undefined, 'fence_id');
      return { ...out, channel: null, frame_id: null, conditions: [] };
    }
    out.fence_id = null;
    out.fence_rule = null;
    const channels = await repo.deviceChannels(auth, v.things_id);
    if (channels !== null && (v.channel as number) >= channels)
      throw new ApiError(400, 'things.bad-channel', `The device has ${channels} CAN channels`, { field: 'channel' });
    if (v.data_type === 'signal') {
      const dbc = await repo.channelDbc(auth, v.things_id, v.channel as number);
      if (!dbc) throw alertError(400, 'alert.not-bound', undefined, 'channel');
      const parsed = parseDbc(dbc.content);
      const sc = v.conditions.find((c) => c.source === 'signal');
      const decoder = parsed.ok ? compileDbc(parsed.dbc) : null;
      const m = decoder?.messages.find((x) => x.name === sc?.message);
      if (!m || !sc?.signal || !m.names.includes(sc.signal))
        throw alertError(
          400,
          'alert.unknown-signal',
          `${ErrorCodes['alert.unknown-signal'].message}: ${sc?.message}.${sc?.signal}`,
          'conditions',
        );
      // The frame a signal travels in is the DBC message's.
      out.frame_id = m.id;
      out.frame_format = m.ext ? 'extended' : 'standard';
      out.frame_type = 'data';
    }
    return out;
  }

  async function load(auth: Auth, id: string): Promise<RuleRow> {
    const r = await repo.get(auth, id);
    if (!r) throw notFound('Trigger rule not found');
    const user = restrictedUser(auth);
    // A shared rule is visible to sub-users of the device; other sub-users' rules are not.
    if (user && r.owner_id !== user && (await repo.byIds(auth, user, [id], null)).length === 0) throw notFound('Trigger rule not found');
    return r;
  }

  function assertOwner(auth: Auth, r: RuleRow) {
    const user = restrictedUser(auth);
    if (user && r.owner_id !== user) throw forbidden('Only the owner of this trigger rule may change it');
  }

  async function create(auth: Auth, v: TriggerRuleValues): Promise<TriggerRule> {
    const w = await resolve(auth, v);
    if (await repo.nameTaken(auth, w.name)) throw alertError(409, 'alert.name-used', undefined, 'name');
    // Spec §9: at most 20 per user (package rule_capacity) and the package's alert_rule in all.
    await quota.assertCanAdd(auth, 'rule_capacity', await repo.countByOwner(auth, auth.userId));
    await quota.assertCanAdd(auth, 'alert_rule', await repo.countTenant(auth));
    let id: string;
    try {
      id = await repo.insert(auth, auth.userId, w);
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw alertError(409, 'alert.name-used', undefined, 'name');
      throw e;
    }
    changed(auth.tenantId, w.things_id);
    return toTriggerRule((await repo.get(auth, id)) as RuleRow);
  }

  return {
    create,

    async list(auth: Auth, f: RuleFilter, page: number, size: number) {
      if (f.thingsId) await requireDevice(raw, auth, f.thingsId, 'read');
      const { rows, total } = await repo.page(auth, restrictedUser(auth), f, (page - 1) * size, size);
      return { total, current_page: page, page_size: size, list: rows.map(toTriggerRule) };
    },

    async get(auth: Auth, id: string): Promise<TriggerRule> {
      return toTriggerRule(await load(auth, id));
    },

    async update(auth: Auth, id: string, v: TriggerRuleValues): Promise<TriggerRule> {
      const r = await load(auth, id);
      assertOwner(auth, r);
      await requireDevice(raw, auth, r.things_id, 'write');
      const w = await resolve(auth, v);
      if (await repo.nameTaken(auth, w.name, id)) throw alertError(409, 'alert.name-used', undefined, 'name');
      try {
        await repo.update(auth, id, w);
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw alertError(409, 'alert.name-used', undefined, 'name');
        throw e;
      }
      changed(auth.tenantId, r.things_id);
      if (w.things_id !== r.things_id) changed(auth.tenantId, w.things_id);
      return toTriggerRule((await repo.get(auth, id)) as RuleRow);
    },

    async setStatus(auth: Auth, id: string, status: 0 | 1): Promise<TriggerRule> {
      const r = await load(auth, id);
      assertOwner(auth, r);
      await requireDevice(raw, auth, r.things_id, 'write');
      await repo.setStatus(auth, id, status);
      changed(auth.tenantId, r.things_id);
      return toTriggerRule((await repo.get(auth, id)) as RuleRow);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const r = await load(auth, id);
      assertOwner(auth, r);
      await requireDevice(raw, auth, r.things_id, 'write');
      // Spec §4: a rule must be disabled before deletion.
      if (Number(r.status) === 1) throw alertError(409, 'alert.rule-enabled');
      await repo.remove(auth, id);
      changed(auth.tenantId, r.things_id);
    },

    async exportRules(auth: Auth, q: { things_id?: string; ids?: string }) {
      if (q.things_id) await requireDevice(raw, auth, q.things_id, 'read');
      const ids = q.ids ? q.ids.split(',').filter((s) => /^[0-9a-f-]{36}$/i.test(s.trim())) : null;
      const rows = await repo.byIds(auth, restrictedUser(auth), ids, q.things_id ?? null);
      return { version: 1 as const, exported_at: new Date().toISOString(), rules: rows.map((r) => exportable(toTriggerRule(r))) };
    },

    /**
     * Creates each rule of an export file; a rule that fails does not stop the others. The three
     * failures of spec §8 get their own codes: repeated rule name, user limit, system limit.
     */
    async importRules(auth: Auth, body: { things_id?: string; rules: Record<string, unknown>[] }): Promise<TriggerRuleImportResult> {
      const results: TriggerRuleImportResult['results'] = [];
      for (const [index, item] of body.rules.entries()) {
        const name = typeof item.name === 'string' ? item.name : null;
        const fail = (code: string, message: string) => results.push({ index, name, ok: false, code, message });
        const parsed = TriggerRuleInputSchema.safeParse(body.things_id ? { ...item, things_id: body.things_id } : item);
        if (!parsed.success) {
          const i = parsed.error.issues[0];
          fail('alert.bad-rule', `${ErrorCodes['alert.bad-rule'].message}: ${i.path.join('.')} ${i.message}`);
          continue;
        }
        if (await repo.nameTaken(auth, parsed.data.name)) {
          fail('alert.name-used', ErrorCodes['alert.name-used'].message);
          continue;
        }
        const user = await quota.check(auth, 'rule_capacity', await repo.countByOwner(auth, auth.userId));
        if (!user.allowed) {
          fail('alert.user-limit', `${ErrorCodes['alert.user-limit'].message} (${user.limit})`);
          continue;
        }
        const system = await quota.check(auth, 'alert_rule', await repo.countTenant(auth));
        if (!system.allowed) {
          fail('alert.system-limit', `${ErrorCodes['alert.system-limit'].message} (${system.limit})`);
          continue;
        }
        try {
          const rule = await create(auth, parsed.data);
          results.push({ index, name, ok: true, id: rule.id });
        } catch (e) {
          if (e instanceof ApiError) {
            const b = Array.isArray(e.body) ? e.body[0] : e.body;
            fail(b.code, b.message);
          } else throw e;
        }
      }
      const imported = results.filter((r) => r.ok).length;
      return { imported, failed: results.length - imported, results };
    },

    /** Parses a body with the contract schema, answering 400 with every field at fault. */
    parse(body: unknown): TriggerRuleValues {
      const r = TriggerRuleInputSchema.safeParse(body);
      if (!r.success) throw zodToApi(r.error);
      return r.data;
    },
  };
}
export type RulesService = ReturnType<typeof rulesService>;
