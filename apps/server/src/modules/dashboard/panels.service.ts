import {
  type DashboardCode,
  ErrorCodes,
  MAX_PANELS,
  type Panel,
  type PanelBodySchema,
  type PanelSignal,
  type PanelValue,
} from '@loggerhead/contract';
import type { z } from 'zod';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { decodeChunk } from '../signals/sample-stream.ts';
import type { SignalsRepository } from '../signals/signals.repository.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import { type PanelFields, panelsRepository } from './panels.repository.ts';

type Body = z.output<typeof PanelBodySchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(status: number, code: DashboardCode, field?: string) {
  return new ApiError(status, code, undefined, field ? { field } : undefined);
}
const dashboardMissing = () => fail(404, 'dashboard.not-found');
const panelMissing = () => notFound('Panel not found');
const key = (s: PanelSignal) => `${s.message}.${s.signal}`;

/**
 * Panels of a dashboard. Every user of the tenant shares the dashboard; a sub-user sees (and may
 * address) only the panels of devices granted to them, and changes only panels of devices they
 * may write, as with the saved curves of a device (spec §6).
 */
export function panelsService(raw: RawSql, signals: SignalsRepository) {
  const repo = panelsRepository(raw);

  async function dashboardOf(auth: Auth, dashboardId: string) {
    if (!UUID.test(dashboardId) || !(await repo.dashboardExists(auth, dashboardId))) throw dashboardMissing();
  }

  async function panelOf(auth: Auth, dashboardId: string, id: string): Promise<Panel> {
    await dashboardOf(auth, dashboardId);
    const p = UUID.test(id) ? await repo.get(auth, restrictedUser(auth), dashboardId, id) : undefined;
    if (!p) throw panelMissing();
    return p;
  }

  /** Shape rules the schema cannot say, then the signals against the DBC bound to the channel. */
  async function check(auth: Auth, body: Body): Promise<PanelFields> {
    if (body.chart_type !== 'line' && body.signals.length !== 1) throw fail(400, 'dashboard.signal-count', 'signals');
    const seen = new Set<string>();
    for (const s of body.signals) {
      if (seen.has(key(s))) throw fail(400, 'dashboard.duplicate-signal', 'signals');
      seen.add(key(s));
    }
    await requireDevice(raw, auth, body.things_id, 'write');
    const bound = await repo.boundSignals(auth.tenantId, body.things_id, body.channel);
    if (!bound) throw fail(400, 'dashboard.not-bound', 'channel');
    const known = new Set<string>();
    for (const m of bound.summary) for (const s of m.signals) known.add(`${m.name}.${s.name}`);
    const kept = bound.strategy ? new Set(bound.strategy.map(key)) : null;
    const unknown = body.signals.filter((s) => !known.has(key(s)) || (kept && !kept.has(key(s))));
    if (unknown.length)
      throw new ApiError(
        400,
        'dashboard.unknown-signal',
        `${ErrorCodes['dashboard.unknown-signal'].message}: ${unknown.map(key).join(', ')}`,
        {
          field: 'signals',
        },
      );
    return { ...body, signals: body.signals.map((s) => ({ message: s.message, signal: s.signal })) };
  }

  /** The newest stored sample of a series, read from the chunk that holds its last time. */
  async function latest(auth: Auth, thingsId: string, channel: number, s: PanelSignal) {
    const [series] = await signals.findSeries(auth, thingsId, s.message, s.signal, channel);
    if (!series || series.last_ts === null) return { unit: series?.unit ?? null, time: null, value: null };
    let best: { t: number; v: number } | null = null;
    for (const c of await signals.chunks([series.id], series.last_ts, series.last_ts + 1)) {
      const d = decodeChunk(c);
      for (let i = 0; i < d.ts.length; i++) if (!best || d.ts[i] >= best.t) best = { t: d.ts[i], v: d.values[i] };
    }
    return { unit: series.unit, time: best ? best.t / 1000 : null, value: best?.v ?? null };
  }

  return {
    async list(auth: Auth, dashboardId: string): Promise<Panel[]> {
      await dashboardOf(auth, dashboardId);
      return repo.list(auth, restrictedUser(auth), dashboardId);
    },

    get: panelOf,

    async create(auth: Auth, dashboardId: string, body: Body): Promise<Panel> {
      await dashboardOf(auth, dashboardId);
      const fields = await check(auth, body);
      const id = await raw.transaction(async (tx) => {
        const r = panelsRepository(tx);
        // The lock makes the count and the next position exact under concurrent adds.
        if (!(await r.lockDashboard(auth, dashboardId))) throw dashboardMissing();
        if ((await r.count(auth, dashboardId)) >= MAX_PANELS) throw fail(409, 'dashboard.panel-limit');
        return r.insert(auth, dashboardId, fields);
      });
      return panelOf(auth, dashboardId, id);
    },

    async update(auth: Auth, dashboardId: string, id: string, body: Body): Promise<Panel> {
      const before = await panelOf(auth, dashboardId, id);
      // Changing a panel of a device needs write access to it, and to the device it moves to.
      await requireDevice(raw, auth, before.things_id, 'write');
      const fields = await check(auth, body);
      if (!(await repo.update(auth, dashboardId, id, fields))) throw panelMissing();
      return panelOf(auth, dashboardId, id);
    },

    async remove(auth: Auth, dashboardId: string, id: string): Promise<void> {
      const p = await panelOf(auth, dashboardId, id);
      await requireDevice(raw, auth, p.things_id, 'write');
      if (!(await repo.remove(auth, dashboardId, id))) throw panelMissing();
    },

    /**
     * Puts the given panels in the given order. They take the positions they held between them, so
     * a sub-user who sees only some panels reorders those and the others keep their places.
     */
    async reorder(auth: Auth, dashboardId: string, ids: string[]): Promise<Panel[]> {
      await dashboardOf(auth, dashboardId);
      if (new Set(ids).size !== ids.length) throw fail(400, 'dashboard.bad-order', 'ids');
      const visible = new Set((await repo.list(auth, restrictedUser(auth), dashboardId)).map((p) => p.id));
      if (ids.some((id) => !visible.has(id))) throw fail(400, 'dashboard.bad-order', 'ids');
      await raw.transaction(async (tx) => {
        const r = panelsRepository(tx);
        if (!(await r.lockDashboard(auth, dashboardId))) throw dashboardMissing();
        const current = await r.orders(auth, dashboardId, ids);
        if (current.size !== ids.length) throw fail(400, 'dashboard.bad-order', 'ids');
        const slots = [...current.values()].sort((a, b) => a - b);
        // Equal positions (never written by this service, but possible) are spread apart first.
        for (let i = 1; i < slots.length; i++) if (slots[i] <= slots[i - 1]) slots[i] = slots[i - 1] + 1;
        await r.setOrders(auth, dashboardId, ids, slots);
      });
      return repo.list(auth, restrictedUser(auth), dashboardId);
    },

    /** The latest value of each signal of a panel, with unit and the DBC's range (a gauge's scale). */
    async values(auth: Auth, dashboardId: string, id: string): Promise<PanelValue[]> {
      const p = await panelOf(auth, dashboardId, id);
      const bound = await repo.boundSignals(auth.tenantId, p.things_id, p.channel);
      const info = new Map<string, { unit: string; min: number; max: number }>();
      for (const m of bound?.summary ?? []) for (const s of m.signals) info.set(`${m.name}.${s.name}`, s);
      const out: PanelValue[] = [];
      for (const s of p.signals) {
        const dbc = info.get(key(s));
        const last = await latest(auth, p.things_id, p.channel, s);
        // A DBC range of [0|0] means "not given".
        const ranged = dbc && dbc.max > dbc.min;
        out.push({
          message: s.message,
          signal: s.signal,
          unit: last.unit || dbc?.unit || '',
          min: ranged ? dbc.min : null,
          max: ranged ? dbc.max : null,
          time: last.time,
          value: last.value,
        });
      }
      return out;
    },
  };
}

export type PanelsService = ReturnType<typeof panelsService>;
