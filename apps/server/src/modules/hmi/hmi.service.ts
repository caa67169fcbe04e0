import {
  type HmiCanvas,
  type HmiPressResult,
  type HmiScreen,
  type HmiScreenInputSchema,
  type HmiScreenSummary,
  HmiStatus,
  type HmiUser,
  type PermissionKey,
} from '@loggerhead/contract';
import type { z } from 'zod';
import type { RawSql } from '../../db/client.ts';
import { epochMs } from '../../db/rows.ts';
import { type Auth, assertPermission } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, forbidden } from '../../lib/errors.ts';
import type { CommandService } from '../command/command.service.ts';
import { panelsRepository } from '../dashboard/panels.repository.ts';
import { requireDevice, requireDevicesWritable } from '../things/things.access.ts';
import type { TwinService } from '../twin/twin.service.ts';
import { type HmiScreenRow, hmiRepository } from './hmi.repository.ts';

type Input = z.output<typeof HmiScreenInputSchema>;

export interface HmiDeps {
  raw: RawSql;
  commands: Pick<CommandService, 'target' | 'issueRaw' | 'waitFinal'>;
  twins: Pick<TwinService, 'get' | 'setDesired' | 'setDesiredFor'>;
  /** Package limit `hmi`: throws 403 quota.limit-reached. */
  assertCanAdd: (auth: Auth, resource: 'hmi', current: number) => Promise<void>;
  /** How long a press waits for the device's answer before it says how the command stands. */
  pressWaitMs?: number;
}

/** A button's command for a device that is offline expires instead of waiting in its queue. */
const PRESS_EXPIRY_MS = 10_000;

const missing = () => ApiError.of('hmi.not-found');

const toSummary = (r: HmiScreenRow): HmiScreenSummary => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  status: r.status === HmiStatus.published ? HmiStatus.published : HmiStatus.draft,
  widget_count: Number(r.widget_count),
  user_count: Number(r.user_count),
  published_at: epochMs(r.published_at),
  created_at: epochMs(r.created_at) ?? 0,
  updated_at: epochMs(r.updated_at) ?? 0,
});
const toScreen = (r: HmiScreenRow): HmiScreen => ({ ...toSummary(r), canvas: r.canvas });

function holds(auth: Auth, key: PermissionKey): boolean {
  try {
    assertPermission(auth, key);
    return true;
  } catch {
    return false;
  }
}

/** The devices a canvas reads (bindings) and the devices its buttons act on. */
function devicesOf(canvas: HmiCanvas) {
  const read = new Set<string>();
  const act = new Set<string>();
  for (const w of canvas.widgets) {
    if (w.binding) read.add(w.binding.things_id);
    if (w.action) act.add(w.action.things_id);
  }
  return { read, act };
}

/**
 * HMI screens of a tenant (spec /out-hmi, decision 0150). A screen is a tenant-wide object linked to
 * devices: saving one needs read access to every device it shows and write access to every device
 * its buttons act on, so that no editor builds a button to a device they could not command. A
 * published screen given to an HMI user (a sub-user) is that user's grant: they open it and press
 * its buttons, and nothing else.
 */
export function hmiService(deps: HmiDeps) {
  const { raw } = deps;
  const repo = hmiRepository(raw);
  const signals = panelsRepository(raw);
  const pressWaitMs = deps.pressWaitMs ?? 8000;

  async function row(auth: Auth, id: string): Promise<HmiScreenRow> {
    const r = await repo.get(auth.tenantId, id);
    if (!r) throw missing();
    return r;
  }

  /** Bindings name signals of the DBC bound to the channel, or properties of the device's model. */
  async function check(auth: Auth, canvas: HmiCanvas, before?: HmiCanvas) {
    const now = devicesOf(canvas);
    const was = before ? devicesOf(before) : { read: new Set<string>(), act: new Set<string>() };
    for (const id of new Set([...now.read, ...was.read])) await requireDevice(raw, auth, id, 'read');
    await requireDevicesWritable(raw, auth, [...now.act, ...was.act]);
    const dbc = new Map<string, Set<string> | null>();
    const props = new Map<string, Set<string>>();
    for (const [i, w] of canvas.widgets.entries()) {
      const b = w.binding;
      if (!b) continue;
      const field = `canvas.widgets.${i}.binding`;
      if (b.source === 'signal') {
        const k = `${b.things_id}/${b.channel}`;
        if (!dbc.has(k)) {
          const bound = await signals.boundSignals(auth.tenantId, b.things_id, b.channel);
          const known = bound ? new Set<string>() : null;
          for (const m of bound?.summary ?? []) for (const s of m.signals) known?.add(`${m.name}.${s.name}`);
          if (known && bound?.strategy)
            for (const s of [...known]) if (!bound.strategy.some((x) => `${x.message}.${x.signal}` === s)) known.delete(s);
          dbc.set(k, known);
        }
        if (!dbc.get(k)?.has(b.signal)) throw badRequest('hmi.unknown-signal', `${field}: ${b.signal}`, field);
      } else {
        if (!props.has(b.things_id)) {
          const twin = await deps.twins.get(auth, b.things_id);
          props.set(b.things_id, new Set(twin.properties.map((p) => p.path)));
        }
        if (!props.get(b.things_id)?.has(b.property)) throw badRequest('hmi.unknown-property', `${field}: ${b.property}`, field);
      }
    }
  }

  async function uniqueName(auth: Auth, name: string, self?: string) {
    const other = await repo.byName(auth.tenantId, name);
    if (other && other !== self) throw conflict('hmi.duplicate', undefined, 'name');
  }

  const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

  /**
   * A screen the caller may open: as an editor (holds `out-hmi:screen:query`, drafts too), or as an
   * HMI user it was given to (published only). Anything else is not found.
   */
  async function openable(auth: Auth, id: string): Promise<{ screen: HmiScreenRow; given: boolean }> {
    const r = await repo.get(auth.tenantId, id);
    if (!r) throw missing();
    const manager = auth.isManager || auth.systemManager;
    const given = !manager && r.status === HmiStatus.published && (await repo.isGiven(auth.tenantId, auth.userId, id));
    if (given || manager || holds(auth, 'out-hmi:screen:query')) return { screen: r, given };
    throw missing();
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string; status?: number }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(auth.tenantId, q, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toSummary) };
    },

    async get(auth: Auth, id: string): Promise<HmiScreen> {
      return toScreen(await row(auth, id));
    },

    async create(auth: Auth, body: Input): Promise<HmiScreen> {
      await uniqueName(auth, body.name);
      await check(auth, body.canvas);
      await deps.assertCanAdd(auth, 'hmi', await repo.count(auth.tenantId));
      try {
        return toScreen(await row(auth, await repo.insert(auth.tenantId, auth.userId, body)));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('hmi.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, body: Input): Promise<HmiScreen> {
      const before = await row(auth, id);
      await uniqueName(auth, body.name, id);
      await check(auth, body.canvas, before.canvas);
      try {
        if (!(await repo.update(auth.tenantId, id, body))) throw missing();
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('hmi.duplicate', undefined, 'name');
        throw e;
      }
      return toScreen(await row(auth, id));
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const before = await row(auth, id);
      await requireDevicesWritable(raw, auth, devicesOf(before.canvas).act);
      if (!(await repo.remove(auth.tenantId, id))) throw missing();
    },

    async setStatus(auth: Auth, id: string, status: number): Promise<HmiScreenSummary> {
      if (!(await repo.setStatus(auth.tenantId, id, status))) throw missing();
      return toSummary(await row(auth, id));
    },

    async users(auth: Auth): Promise<HmiUser[]> {
      return repo.users(auth.tenantId);
    },

    async setUserScreens(auth: Auth, userId: string, screenIds: string[]): Promise<HmiUser> {
      const ids = [...new Set(screenIds)];
      if (!(await repo.users(auth.tenantId, userId)).length) throw ApiError.of('hmi.unknown-user');
      if ((await repo.screensInTenant(auth.tenantId, ids)) !== ids.length) throw badRequest('hmi.unknown-screen', undefined, 'screen_ids');
      await raw.transaction((tx) => hmiRepository(tx).setUserScreens(auth.tenantId, userId, ids));
      const [u] = await repo.users(auth.tenantId, userId);
      return u;
    },

    /** Published screens the caller may open: every one for a manager, those given to a sub-user. */
    async mine(auth: Auth): Promise<HmiScreenSummary[]> {
      const manager = auth.isManager || auth.systemManager;
      return (await repo.published(auth.tenantId, manager ? null : auth.userId)).map(toSummary);
    },

    async open(auth: Auth, id: string): Promise<HmiScreen> {
      return toScreen((await openable(auth, id)).screen);
    },

    /**
     * A button pressed. An HMI user the published screen is given to acts with the screen's grant
     * (the button does what its editor, who could command the device, set up); anyone else needs
     * the key and the device access the action itself needs.
     */
    async press(auth: Auth, id: string, widgetId: string): Promise<HmiPressResult> {
      if (auth.readOnly) throw forbidden('Read-only session');
      const { screen, given } = await openable(auth, id);
      const w = screen.canvas.widgets.find((x) => x.id === widgetId);
      const action = w?.type === 'button' ? w.action : undefined;
      if (!action) throw ApiError.of('hmi.no-button');
      if (action.kind === 'twin') {
        if (!given) assertPermission(auth, 'things:digital-twin:update');
        const twin = given
          ? await deps.twins.setDesiredFor(auth.tenantId, action.things_id, action.desired)
          : await deps.twins.setDesired(auth, action.things_id, action.desired);
        return {
          kind: 'twin',
          things_id: action.things_id,
          correlation_id: null,
          state: 'set',
          code: null,
          message: null,
          desired_version: twin.desired_version,
        };
      }
      const issue = {
        operation_name: action.operation_name,
        operation_params: action.operation_params,
        description: `HMI: ${screen.name}`,
        expires_in_ms: PRESS_EXPIRY_MS,
      };
      if (!given) {
        assertPermission(auth, 'things:things:command');
        await requireDevice(raw, auth, action.things_id, 'write');
      }
      const sent = await deps.commands.issueRaw(await deps.commands.target(auth.tenantId, action.things_id), issue, auth.userId);
      let timer: NodeJS.Timeout | undefined;
      const final = await Promise.race([
        deps.commands.waitFinal(sent),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), pressWaitMs);
        }),
      ]);
      clearTimeout(timer);
      const c = final ?? sent;
      return {
        kind: 'command',
        things_id: action.things_id,
        correlation_id: c.correlation_id,
        state: c.state,
        code: c.code,
        message: c.message,
        desired_version: null,
      };
    },
  };
}

export type HmiService = ReturnType<typeof hmiService>;
