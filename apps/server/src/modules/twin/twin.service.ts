import { parseModelTelemetry } from '@loggerhead/can/protocol/messages.ts';
import { downTopic } from '@loggerhead/can/protocol/topics.ts';
import {
  EMPTY_FN_JSON_SCHEMA,
  isValueOfType,
  type Twin,
  type TwinAction,
  type TwinProperty,
  type TwinRule,
  type TwinRuleInput,
  TwinRuleInputSchema,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { DeviceIdentity } from '../../ingest/device-directory.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { type MappingRuleService, mapFlat, mapSignals } from '../models/mapping-rules.service.ts';
import { requireDevice, requireDevicesWritable } from '../things/things.access.ts';
import type { ModelBlock, Reported, TwinRepository, TwinRow, TwinRuleRow } from './twin.repository.ts';
import { conditionsHold } from './twin-conditions.ts';

/** What the twin knows of a model: its status properties by path and identifier, its events' types. */
interface ModelShape {
  properties: TwinProperty[];
  byPath: Map<string, TwinProperty>;
  /** A free-form key (identifier alone) → the first block's path that has it. */
  byIdentifier: Map<string, string>;
  eventTypes: Map<string, string>;
}

function shapeOf(blocks: ModelBlock[]): ModelShape {
  const properties: TwinProperty[] = [];
  const eventTypes = new Map<string, string>();
  for (const b of blocks) {
    const s = { ...EMPTY_FN_JSON_SCHEMA, ...b.json_schema };
    for (const p of s.status)
      properties.push({
        path: `${b.name}.${p.identifier}`,
        block: b.name,
        identifier: p.identifier,
        name: p.name,
        data_type: p.data_type,
        read_only: p.read_only ?? false,
        description: p.description ?? '',
        i18n: p.i18n ?? {},
      });
    for (const e of s.events) eventTypes.set(`${b.name}.${e.identifier}`, e.type);
  }
  const byIdentifier = new Map<string, string>();
  for (const p of properties) if (!byIdentifier.has(p.identifier)) byIdentifier.set(p.identifier, p.path);
  return { properties, byPath: new Map(properties.map((p) => [p.path, p])), byIdentifier, eventTypes };
}

const nest = (flat: Record<string, unknown>) => {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [path, v] of Object.entries(flat)) {
    const dot = path.indexOf('.');
    const block = path.slice(0, dot);
    out[block] = { ...out[block], [path.slice(dot + 1)]: v };
  }
  return out;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function deltaOf(desired: Record<string, unknown>, reported: Reported): Record<string, unknown> {
  return Object.fromEntries(Object.entries(desired).filter(([k, v]) => !reported[k] || !same(reported[k].value, v)));
}

export interface TwinDeps {
  raw: RawSql;
  repo: TwinRepository;
  publish: (topic: string, payload: Uint8Array) => Promise<void>;
  malformed: (d: DeviceIdentity, topic: string, reason: string) => void;
  /** Mapping rules of raw uplinks onto model properties (mapping-rule-infos), applied before the model's own identifiers. */
  mappings?: Pick<MappingRuleService, 'mapping' | 'uses'>;
  log?: { warn: (o: object, m: string) => void };
}

const SHAPE_TTL_MS = 5_000;

/**
 * Digital twins (decision 0124): model-shaped telemetry updates the reported state and the model's
 * event log; desired values go down as a delta on `down/twin`; the device acknowledges on `up/twin`.
 * Twin rules are evaluated on every reported change.
 */
export function twinService(deps: TwinDeps) {
  const { repo } = deps;
  const shapes = new Map<string, { at: number; shape: ModelShape }>();

  async function shape(modelId: string): Promise<ModelShape> {
    const hit = shapes.get(modelId);
    if (hit && hit.at > Date.now() - SHAPE_TTL_MS) return hit.shape;
    const s = shapeOf(await repo.modelBlocks(modelId));
    shapes.set(modelId, { at: Date.now(), shape: s });
    return s;
  }

  function toTwin(thingsId: string, modelId: string, s: ModelShape, row: TwinRow | null): Twin {
    const reported = row?.reported ?? {};
    const desired = row?.desired ?? {};
    return {
      things_id: thingsId,
      info_model_id: modelId,
      properties: s.properties,
      reported,
      desired,
      delta: deltaOf(desired, reported),
      desired_version: row?.desired_version ?? 0,
      desired_at: ms(row?.desired_at ?? null),
      acked_version: row?.acked_version ?? 0,
      ack_code: row?.ack_code ?? null,
      ack_message: row?.ack_message ?? null,
      acked_at: ms(row?.acked_at ?? null),
      reported_at: ms(row?.reported_at ?? null),
    };
  }

  /** Checks desired values against the model: a writable status property, a value of its type (null takes it away). */
  function checkDesired(s: ModelShape, desired: Record<string, unknown>) {
    const unknown = Object.keys(desired).filter((k) => !s.byPath.has(k));
    if (unknown.length) throw new ApiError(400, 'twin.unknown-property', undefined, { field: 'desired', details: { properties: unknown } });
    const readOnly = Object.keys(desired).filter((k) => s.byPath.get(k)?.read_only);
    if (readOnly.length) throw new ApiError(400, 'twin.read-only', undefined, { field: 'desired', details: { properties: readOnly } });
    const wrong = Object.entries(desired)
      .filter(([k, v]) => v !== null && !isValueOfType(s.byPath.get(k)?.data_type ?? 2, v))
      .map(([k]) => k);
    if (wrong.length) throw new ApiError(400, 'twin.bad-value', undefined, { field: 'desired', details: { properties: wrong } });
  }

  /** Stores desired values and sends the device its delta. */
  async function applyDesired(tenantId: string, thingsId: string, deviceId: string, desired: Record<string, unknown>): Promise<TwinRow> {
    const row = await repo.setDesired(tenantId, thingsId, desired);
    const message = { version: row.desired_version, desired: nest(row.desired), delta: nest(deltaOf(row.desired, row.reported)) };
    try {
      await deps.publish(downTopic(deviceId, 'twin'), new TextEncoder().encode(JSON.stringify(message)));
    } catch (err) {
      // Kept: the device gets the delta with the next desired change or when it asks (the twin shows it unacknowledged).
      deps.log?.warn({ err, thingsId }, 'twin delta publish failed');
    }
    return row;
  }

  async function runActions(d: { tenantId: string; thingsId: string }, rule: TwinRuleRow, deviceId: string, modelId: string) {
    const done: unknown[] = [];
    for (const a of rule.actions) {
      if (a.type === 'desired') {
        try {
          checkDesired(await shape(modelId), a.values);
          const row = await applyDesired(d.tenantId, d.thingsId, deviceId, a.values);
          done.push({ type: 'desired', version: row.desired_version });
        } catch (e) {
          done.push({ type: 'desired', error: e instanceof ApiError && !Array.isArray(e.body) ? e.body.code : String(e) });
        }
      } else {
        await repo.insertEvents(d.tenantId, d.thingsId, [
          {
            block: 'rules',
            event: 'twin_rule',
            event_type: 'log',
            data: { rule_id: rule.id, name: rule.name, message: a.message },
            ts: Date.now(),
          },
        ]);
        done.push({ type: 'event' });
      }
    }
    return done;
  }

  /** Rules of the device's tenant whose conditions became true with this change. */
  async function evaluate(d: { tenantId: string; thingsId: string }, modelId: string, deviceId: string, before: Reported, after: Reported) {
    const changed = new Set(Object.keys(after).filter((k) => !before[k] || !same(before[k].value, after[k].value)));
    if (!changed.size) return;
    for (const rule of await repo.enabledRules(d.tenantId)) {
      const f = rule.trigger_filter ?? {};
      if (f.things_ids?.length && !f.things_ids.includes(d.thingsId)) continue;
      if (f.info_model_id && f.info_model_id !== modelId) continue;
      if (!rule.trigger_condition.some((c) => changed.has(c.field))) continue;
      if (!conditionsHold(rule.trigger_condition, after) || conditionsHold(rule.trigger_condition, before)) continue;
      const values = Object.fromEntries(rule.trigger_condition.map((c) => [c.field, after[c.field]?.value ?? null]));
      const actions = await runActions(d, rule, deviceId, modelId);
      await repo.insertFire(d.tenantId, rule.id, d.thingsId, values, actions);
    }
  }

  /** Reported values (already nested by block) of a device: checked, stored, rules evaluated. Answers the keys dropped. */
  async function report(
    d: { tenantId: string; thingsId: string },
    thing: { info_model_id: string; third_things_id: string },
    props: Record<string, Record<string, unknown>>,
    flat: Record<string, unknown> | undefined,
    ts: number,
  ): Promise<string[]> {
    const s = await shape(thing.info_model_id);
    const patch: Reported = {};
    const dropped: string[] = [];
    const put = (path: string, v: unknown) => {
      const p = s.byPath.get(path);
      if (p && isValueOfType(p.data_type, v)) patch[path] = { value: v, ts };
      else dropped.push(path);
    };
    for (const [block, values] of Object.entries(props)) for (const [id, v] of Object.entries(values)) put(`${block}.${id}`, v);
    let rest = flat ?? {};
    if (flat && deps.mappings) {
      const m = mapFlat(flat, await deps.mappings.mapping(d.tenantId, thing.info_model_id, 'json'));
      for (const [path, v] of Object.entries(m.mapped)) put(path, v);
      rest = m.rest;
    }
    for (const [id, v] of Object.entries(rest)) {
      const path = s.byIdentifier.get(id);
      if (path) put(path, v);
      else dropped.push(id);
    }
    if (Object.keys(patch).length) {
      const { before, after } = await repo.report(d.tenantId, d.thingsId, patch);
      await evaluate(d, thing.info_model_id, thing.third_things_id, before, after);
    }
    return dropped;
  }

  /** Sets desired values on behalf of a feature that has checked the access itself (an HMI button). */
  async function setDesiredFor(tenantId: string, thingsId: string, desired: Record<string, unknown>): Promise<Twin> {
    const thing = await repo.thing(tenantId, thingsId);
    if (!thing) throw new ApiError(404, 'http.404', 'Device not found');
    const s = await shape(thing.info_model_id);
    checkDesired(s, desired);
    const row = await applyDesired(tenantId, thingsId, thing.third_things_id, desired);
    return toTwin(thingsId, thing.info_model_id, s, row);
  }

  return {
    /**
     * Decoded CAN signals of a device (`signals.decoded`): those a mapping rule of the device's model
     * names land on their properties, the last value of each in the batch.
     */
    async onSignals(e: { tenantId: string; thingsId: string; series: { signal: string; ts: Float64Array; values: Float64Array }[] }) {
      if (!deps.mappings || !(await deps.mappings.uses(e.tenantId, 'can'))) return;
      const thing = await repo.thing(e.tenantId, e.thingsId);
      if (!thing) return;
      const mapping = await deps.mappings.mapping(e.tenantId, thing.info_model_id, 'can');
      const last: Record<string, number> = {};
      let ts = 0;
      for (const s of e.series) {
        const n = s.values.length;
        if (!n || !mapping.has(s.signal)) continue;
        last[s.signal] = s.values[n - 1];
        ts = Math.max(ts, Math.floor(s.ts[n - 1] / 1000));
      }
      const paths = mapSignals(last, mapping);
      if (!Object.keys(paths).length) return;
      const s = await shape(thing.info_model_id);
      const patch: Reported = {};
      for (const [path, v] of Object.entries(paths)) {
        const p = s.byPath.get(path);
        if (p && isValueOfType(p.data_type, v)) patch[path] = { value: v, ts };
      }
      if (!Object.keys(patch).length) return;
      const { before, after } = await repo.report(e.tenantId, e.thingsId, patch);
      await evaluate(e, thing.info_model_id, thing.third_things_id, before, after);
    },

    /** `up/telemetry` of a device (decision 0123). */
    async onTelemetry(d: DeviceIdentity, message: Record<string, unknown>, topic: string) {
      const m = parseModelTelemetry(message);
      if (typeof m === 'string') {
        deps.malformed(d, topic, m);
        return;
      }
      const thing = await repo.thing(d.tenantId, d.thingsId);
      if (!thing) return;
      const ts = m.ts ?? Date.now();
      const dropped = await report(d, thing, m.properties ?? {}, m.flat, ts);
      if (m.events?.length) {
        const s = await shape(thing.info_model_id);
        const known = m.events.filter((e) => s.eventTypes.has(`${e.block}.${e.event}`));
        for (const e of m.events) if (!s.eventTypes.has(`${e.block}.${e.event}`)) dropped.push(`event ${e.block}.${e.event}`);
        await repo.insertEvents(
          d.tenantId,
          d.thingsId,
          known.map((e) => ({
            block: e.block,
            event: e.event,
            event_type: s.eventTypes.get(`${e.block}.${e.event}`) ?? null,
            data: e.data ?? {},
            ts,
          })),
        );
      }
      if (dropped.length) deps.malformed(d, topic, `not in the info model or of the wrong type: ${dropped.slice(0, 10).join(', ')}`);
    },

    /** `up/twin`: the device applied (or refused) a desired version; it may report the values it now holds. */
    async onTwinAck(
      d: DeviceIdentity,
      ack: { version: number; code: number; message?: string; reported?: Record<string, Record<string, unknown>> },
      topic: string,
    ) {
      const thing = await repo.thing(d.tenantId, d.thingsId);
      if (!thing) return;
      if (!(await repo.ack(d.tenantId, d.thingsId, ack.version, ack.code, ack.message ?? null)))
        deps.malformed(d, topic, `twin acknowledgement of version ${ack.version}, which was not sent`);
      if (ack.reported) {
        const dropped = await report(d, thing, ack.reported, undefined, Date.now());
        if (dropped.length) deps.malformed(d, topic, `not in the info model or of the wrong type: ${dropped.slice(0, 10).join(', ')}`);
      }
    },

    async get(auth: Auth, thingsId: string): Promise<Twin> {
      await requireDevice(deps.raw, auth, thingsId, 'read');
      const thing = await repo.thing(auth.tenantId, thingsId);
      if (!thing) throw new ApiError(404, 'http.404', 'Device not found');
      return toTwin(thingsId, thing.info_model_id, await shape(thing.info_model_id), await repo.twin(auth.tenantId, thingsId));
    },

    async setDesired(auth: Auth, thingsId: string, desired: Record<string, unknown>): Promise<Twin> {
      await requireDevice(deps.raw, auth, thingsId, 'write');
      return setDesiredFor(auth.tenantId, thingsId, desired);
    },

    setDesiredFor,

    /** One property's reported values over time; 24 hours before `end_time` (now) unless a start is given. */
    async history(auth: Auth, thingsId: string, q: { property: string; start_time?: number; end_time?: number; limit: number }) {
      await requireDevice(deps.raw, auth, thingsId, 'read');
      const end = q.end_time ?? Date.now();
      const start = q.start_time ?? end - 86_400_000;
      if (start > end) throw badRequest('data.bad-range');
      const { rows, truncated } = await repo.propertyHistory(auth.tenantId, thingsId, q.property, start, end, q.limit);
      return { property: q.property, list: rows, truncated };
    },

    async events(auth: Auth, thingsId: string, q: { current_page: number; page_size: number }) {
      await requireDevice(deps.raw, auth, thingsId, 'read');
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.eventPage(auth, thingsId, (q.current_page - 1) * q.page_size, q.page_size);
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => ({ id: r.id, block: r.block, event: r.event, event_type: r.event_type, data: r.data, ts: ms(r.ts) ?? 0 })),
      };
    },

    /** Forgets cached model shapes (a block or model was edited). */
    forgetShapes() {
      shapes.clear();
    },
  };
}
export type TwinService = ReturnType<typeof twinService>;

const toRule = (r: TwinRuleRow): TwinRule => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  status: r.status,
  shadow_type: r.shadow_type,
  trigger_condition: r.trigger_condition,
  trigger_filter: r.trigger_filter ?? {},
  actions: r.actions,
  fires: r.fires,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const ruleNotFound = () => new ApiError(404, 'twin-rule.not-found');

/** Twin rules (spec §3 twins rule): CRUD, status, the spec's tree save, and the log of their fires. */
export function twinRuleService(raw: RawSql, repo: TwinRepository) {
  async function get(auth: Auth, id: string): Promise<TwinRule> {
    const row = await repo.rule(auth, id);
    if (!row) throw ruleNotFound();
    return toRule(row);
  }

  async function save(auth: Auth, id: string | null, input: TwinRuleInput): Promise<TwinRule> {
    const v = TwinRuleInputSchema.parse(input);
    // A rule that watches named devices (and may set their desired state) needs write access to each.
    await requireDevicesWritable(raw, auth, v.trigger_filter.things_ids ?? []);
    const same = await repo.ruleByName(auth, v.name);
    if (same && same.id !== id) throw conflict('twin-rule.duplicate', undefined, 'name');
    const actions = v.actions.map((a, i) => ({ ...a, id: a.id ?? `a${i + 1}` }));
    const values = { ...v, actions };
    if (id === null) id = await repo.insertRule(auth, values);
    else if (!(await repo.updateRule(auth, id, values))) throw ruleNotFound();
    return get(auth, id);
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.rulePage(auth, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toRule) };
    },
    get,
    create: (auth: Auth, body: TwinRuleInput) => save(auth, null, body),
    update: (auth: Auth, id: string, body: TwinRuleInput) => save(auth, id, body),

    /** Spec "tree save": the rule is created if it has no id, else updated; then the action is added or, by id, updated. */
    async treeSave(auth: Auth, body: { id?: string; rule: Omit<TwinRuleInput, 'actions'>; action?: TwinAction }): Promise<TwinRule> {
      const current = body.id ? await repo.rule(auth, body.id) : null;
      if (body.id && !current) throw ruleNotFound();
      const actions = [...(current?.actions ?? [])];
      if (body.action) {
        const i = body.action.id ? actions.findIndex((a) => a.id === body.action?.id) : -1;
        if (i >= 0) actions[i] = body.action;
        else actions.push({ ...body.action, id: body.action.id ?? `a${Date.now().toString(36)}` });
      }
      return save(auth, current?.id ?? null, { ...body.rule, actions });
    },

    async setStatus(auth: Auth, id: string, status: number): Promise<TwinRule> {
      if (!(await repo.setRuleStatus(auth, id, status))) throw ruleNotFound();
      return get(auth, id);
    },

    async remove(auth: Auth, id: string) {
      if (!(await repo.removeRule(auth, id))) throw ruleNotFound();
      return { ok: true as const };
    },

    async fires(auth: Auth, q: { current_page: number; page_size: number; rule_id?: string; things_id?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.firePage(auth, q, (q.current_page - 1) * q.page_size, q.page_size);
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => ({ ...r, fired_at: ms(r.fired_at) ?? 0 })),
      };
    },
  };
}
