import {
  EDGE_RULE_OPERATION,
  EDGE_RULE_TIMEOUT_MS,
  type EdgeIssuance,
  type EdgeIssuanceState,
  type EdgeIssue,
  EdgeIssueSchema,
  type EdgeRule,
  type EdgeRuleInput,
  EdgeRuleInputSchema,
  type EdgeRuleOnDevice,
  EMPTY_FN_JSON_SCHEMA,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import type { CommandService } from '../command/command.service.ts';
import { requireDevicesWritable, restrictedUser } from '../things/things.access.ts';
import type { EdgeRepository, EdgeRuleRow, EdgeRuleValues, IssuanceRow } from './edge.repository.ts';

const toRule = (r: EdgeRuleRow): EdgeRule => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  info_model_id: r.info_model_id,
  kind: r.kind,
  field: r.field,
  threshold: r.threshold === null ? null : Number(r.threshold),
  function: r.fn,
  window_s: r.window_s,
  version: r.version,
  issued: r.issued,
  accepted: r.accepted,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

/** The device's answer, as the command that carried the rule tells it. */
function issuanceState(commandState: string): EdgeIssuanceState {
  if (commandState === 'answered') return 'accepted';
  if (commandState === 'failed') return 'rejected';
  if (commandState === 'timeout' || commandState === 'expired') return 'timeout';
  if (commandState === 'cancelled') return 'cancelled';
  return 'issued';
}

const toIssuance = (r: IssuanceRow): EdgeIssuance => ({
  id: r.id,
  rule_id: r.rule_id,
  rule_name: r.rule_name,
  rule_version: r.rule_version,
  things_id: r.things_id,
  things_name: r.things_name,
  third_things_id: r.third_things_id,
  group_id: r.group_id,
  correlation_id: r.correlation_id,
  state: issuanceState(r.command_state),
  command_state: r.command_state,
  code: r.code,
  message: r.message,
  issued_at: ms(r.issued_at) ?? 0,
  answered_at: ms(r.answered_at),
});

/** The rule as the device receives it in `edge.set_rule` (docs/device-protocol.md). */
export function ruleOnDevice(r: EdgeRuleRow): EdgeRuleOnDevice {
  const base = { id: r.id, version: r.version, name: r.name, kind: r.kind, field: r.field };
  return r.kind === 'filter'
    ? { ...base, threshold: Number(r.threshold) }
    : { ...base, function: r.fn ?? 'mean', window_s: r.window_s ?? 1 };
}

const notFound = () => new ApiError(404, 'edge-rule.not-found');

export interface EdgeDeps {
  raw: RawSql;
  repo: EdgeRepository;
  commands: Pick<CommandService, 'target' | 'issueRaw'>;
  /** Package limit `edge_computing`: throws 403 quota.limit-reached. */
  assertCanAdd: (auth: Auth, resource: 'edge_computing', current: number) => Promise<void>;
}

/**
 * Edge-computing rules (spec §7 /alert-mgmt): authored against a numeric status property of an info
 * model, issued to devices as the `edge.set_rule` command; each issuance's state is its command's.
 */
export function edgeService(deps: EdgeDeps) {
  const { repo, raw } = deps;

  async function get(auth: Auth, id: string): Promise<EdgeRuleRow> {
    const r = await repo.get(auth, id);
    if (!r) throw notFound();
    return r;
  }

  async function values(auth: Auth, input: EdgeRuleInput): Promise<EdgeRuleValues> {
    const v = EdgeRuleInputSchema.parse(input);
    const blocks = await repo.modelBlocks(auth, v.info_model_id);
    if (!blocks) throw new ApiError(404, 'info-model.not-found', undefined, { field: 'info_model_id' });
    const dot = v.field.indexOf('.');
    const block = blocks.find((b) => b.name === v.field.slice(0, dot));
    const prop = ({ ...EMPTY_FN_JSON_SCHEMA, ...block?.json_schema }.status ?? []).find((p) => p.identifier === v.field.slice(dot + 1));
    if (dot < 1 || !prop || prop.data_type !== 1) throw badRequest('edge-rule.bad-field', undefined, 'field');
    return {
      name: v.name,
      description: v.description,
      info_model_id: v.info_model_id,
      kind: v.kind,
      field: v.field,
      threshold: v.kind === 'filter' ? (v.threshold ?? null) : null,
      fn: v.kind === 'aggregate' ? (v.function ?? null) : null,
      window_s: v.kind === 'aggregate' ? (v.window_s ?? null) : null,
    };
  }

  async function save(auth: Auth, id: string | null, input: EdgeRuleInput): Promise<EdgeRule> {
    const v = await values(auth, input);
    const same = await repo.byName(auth, v.name);
    if (same && same.id !== id) throw conflict('edge-rule.duplicate', undefined, 'name');
    if (id === null) {
      await deps.assertCanAdd(auth, 'edge_computing', await repo.count(auth));
      id = await repo.insert(auth, v);
    } else if (!(await repo.update(auth, id, v))) throw notFound();
    return toRule(await get(auth, id));
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(auth, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toRule) };
    },
    get: async (auth: Auth, id: string) => toRule(await get(auth, id)),
    create: (auth: Auth, body: EdgeRuleInput) => save(auth, null, body),
    update: (auth: Auth, id: string, body: EdgeRuleInput) => save(auth, id, body),
    async remove(auth: Auth, id: string) {
      if (!(await repo.remove(auth, id))) throw notFound();
      return { ok: true as const };
    },

    /**
     * Sends the rule to the devices named and to the group's members of the rule's model (members of
     * another model are left out; a device named that is of another model is refused). Needs write
     * access to each. Offline devices get it when they come back, as any command.
     */
    async issue(auth: Auth, id: string, body: EdgeIssue) {
      const v = EdgeIssueSchema.parse(body);
      const rule = await get(auth, id);
      const named = [...new Set(v.things_ids)];
      const members = v.group_id ? await repo.groupMembers(auth, v.group_id) : [];
      if (members === null) throw new ApiError(404, 'group.not-found', undefined, { field: 'group_id' });
      await requireDevicesWritable(raw, auth, [...named, ...members]);
      const models = new Map((await repo.thingModels(auth, [...named, ...members])).map((t) => [t.id, t.info_model_id]));
      const wrong = named.filter((t) => models.get(t) !== rule.info_model_id);
      if (wrong.length)
        throw new ApiError(400, 'edge-rule.model-mismatch', undefined, { field: 'things_ids', details: { things_ids: wrong } });
      const fromGroup = members.filter((t) => models.get(t) === rule.info_model_id && !named.includes(t));
      const targets = [...named.map((t) => ({ t, group: null })), ...fromGroup.map((t) => ({ t, group: v.group_id ?? null }))];
      if (!targets.length) throw badRequest('edge-rule.no-devices', undefined, 'group_id');
      const params = { rule: ruleOnDevice(rule) } as unknown as Record<string, unknown>;
      const ids: string[] = [];
      for (const { t, group } of targets) {
        const row = await deps.commands.issueRaw(
          await deps.commands.target(auth.tenantId, t),
          {
            operation_name: EDGE_RULE_OPERATION,
            operation_params: params,
            description: `edge rule ${rule.name} v${rule.version}`,
            timeout_ms: v.timeout_ms ?? EDGE_RULE_TIMEOUT_MS,
          },
          auth.userId,
        );
        ids.push(
          await repo.addIssuance(auth, {
            ruleId: rule.id,
            version: rule.version,
            thingsId: t,
            groupId: group,
            correlationId: row.correlation_id,
          }),
        );
      }
      const { rows } = await repo.issuances(auth, null, { ids }, 0, ids.length);
      return { issued: ids.length, list: rows.map(toIssuance) };
    },

    async issuances(
      auth: Auth,
      q: { current_page: number; page_size: number; rule_id?: string; things_id?: string; state?: EdgeIssuanceState },
    ) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.issuances(auth, restrictedUser(auth), q, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toIssuance) };
    },
  };
}
export type EdgeService = ReturnType<typeof edgeService>;
