import type { Backfill, BackfillRange, ChannelBind, ChannelBinding, ParsingState } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import { panelsRepository } from '../dashboard/panels.repository.ts';
import { requireDevice } from '../things/things.access.ts';
import { type BindingRow, type MappingRepository, mappingRepository } from './mapping.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATE: Record<ParsingState, number> = { started: 1, paused: 0 };

function toBinding(r: BindingRow): ChannelBinding {
  return {
    things_id: r.things_id,
    channel: r.channel,
    dbc_id: r.dbc_id,
    dbc_name: r.dbc_name,
    strategy_id: r.strategy_id,
    strategy_name: r.strategy_name,
    state: r.state === 1 ? 'started' : 'paused',
    updated_at: new Date(r.updated_at).getTime(),
  };
}

export interface BindingEffects {
  /** Bindings of the device changed: the decoder reloads them. */
  changed(thingsId: string): void;
  /** Unbind: the channel's decoded data and saved curves go (its dashboard panels went with the binding). */
  clearChannel(tenantId: string, thingsId: string, channel: number): Promise<unknown>;
  /** Back-fill of stored frames: start (refused while one runs), stop, newest task. */
  backfill: {
    start(tenantId: string, thingsId: string, channel: number, range: BackfillRange): Promise<Backfill | 'running'>;
    stop(thingsId: string, channel: number): Promise<boolean>;
    latest(tenantId: string, thingsId: string, channel: number): Promise<Backfill | null>;
  };
}

function backfillRunning() {
  return new ApiError(409, 'mapping.backfill-running');
}

/** The range is [begin, end) in ms; its end is cut at now (later frames are decoded on ingest). */
function checkRange(range: BackfillRange, state: ParsingState): BackfillRange {
  if (state !== 'started') throw badRequest('mapping.backfill-range', 'Stored frames are decoded only when parsing starts', 'backfill');
  const end = Math.min(range.end_time, Date.now());
  if (!(range.begin_time < end)) throw badRequest('mapping.backfill-range', undefined, 'backfill');
  return { begin_time: range.begin_time, end_time: end };
}

/**
 * Spec §4 DBC parsing of a device channel: bind (to a DBC file or a strategy), start, pause (stops
 * decoding, so no more capacity is used), unbind (clears the channel's decoded data and dashboards).
 */
export function bindingsService(raw: RawSql, repo: MappingRepository, effects: BindingEffects) {
  async function channelOf(auth: Auth, thingsId: string, channel: number, need: 'read' | 'write') {
    await requireDevice(raw, auth, thingsId, need);
    const count = (await repo.channelCount(auth, thingsId)) ?? 0;
    if (channel >= count) throw badRequest('things.bad-channel', undefined, 'channel');
  }

  async function current(auth: Auth, thingsId: string, channel: number): Promise<ChannelBinding> {
    const row = await repo.binding(auth, thingsId, channel);
    if (!row) throw new ApiError(404, 'mapping.not-bound');
    return toBinding(row);
  }

  return {
    async list(auth: Auth, thingsId: string): Promise<ChannelBinding[]> {
      await requireDevice(raw, auth, thingsId, 'read');
      return (await repo.bindings(auth, thingsId)).map(toBinding);
    },

    async get(auth: Auth, thingsId: string, channel: number): Promise<ChannelBinding> {
      await channelOf(auth, thingsId, channel, 'read');
      return current(auth, thingsId, channel);
    },

    async bind(auth: Auth, thingsId: string, channel: number, body: ChannelBind): Promise<ChannelBinding> {
      await channelOf(auth, thingsId, channel, 'write');
      let dbcId: string;
      let strategyId: string | null = null;
      if (body.strategy_id) {
        const s = UUID.test(body.strategy_id) ? await repo.getStrategy(auth, body.strategy_id) : undefined;
        if (!s) throw notFound('Signal strategy not found');
        dbcId = s.dbc_id;
        strategyId = s.id;
      } else {
        const f = body.dbc_id && UUID.test(body.dbc_id) ? await repo.getDbc(auth, body.dbc_id) : undefined;
        if (!f) throw notFound('DBC file not found');
        dbcId = f.id;
      }
      const range = body.backfill ? checkRange(body.backfill, body.state) : null;
      // Another DBC decodes differently: a back-fill under the old binding stops first.
      await effects.backfill.stop(thingsId, channel);
      await repo.upsertBinding(auth, thingsId, channel, dbcId, strategyId, STATE[body.state]);
      effects.changed(thingsId);
      if (range && (await effects.backfill.start(auth.tenantId, thingsId, channel, range)) === 'running') throw backfillRunning();
      return current(auth, thingsId, channel);
    },

    async setState(auth: Auth, thingsId: string, channel: number, state: ParsingState, backfill?: BackfillRange): Promise<ChannelBinding> {
      await channelOf(auth, thingsId, channel, 'write');
      const range = backfill ? checkRange(backfill, state) : null;
      // Paused stops using capacity: a running back-fill stops too.
      if (state === 'paused') await effects.backfill.stop(thingsId, channel);
      if (!(await repo.setState(auth, thingsId, channel, STATE[state]))) throw new ApiError(404, 'mapping.not-bound');
      effects.changed(thingsId);
      if (range && (await effects.backfill.start(auth.tenantId, thingsId, channel, range)) === 'running') throw backfillRunning();
      return current(auth, thingsId, channel);
    },

    /** The channel's newest back-fill (null when none ran). */
    async backfill(auth: Auth, thingsId: string, channel: number): Promise<Backfill | null> {
      await channelOf(auth, thingsId, channel, 'read');
      return effects.backfill.latest(auth.tenantId, thingsId, channel);
    },

    /** Stops the channel's running back-fill; what it stored so far stays. */
    async stopBackfill(auth: Auth, thingsId: string, channel: number): Promise<void> {
      await channelOf(auth, thingsId, channel, 'write');
      if (!(await effects.backfill.stop(thingsId, channel))) throw new ApiError(404, 'mapping.backfill-none');
    },

    async unbind(auth: Auth, thingsId: string, channel: number): Promise<void> {
      await channelOf(auth, thingsId, channel, 'write');
      await effects.backfill.stop(thingsId, channel);
      // The binding and the dashboard panels of the channel go together, or neither does.
      const gone = await raw.transaction(async (tx) => {
        if (!(await mappingRepository(tx).deleteBinding(auth, thingsId, channel))) return false;
        await panelsRepository(tx).deleteForChannel(auth.tenantId, thingsId, channel);
        return true;
      });
      if (!gone) throw new ApiError(404, 'mapping.not-bound');
      effects.changed(thingsId);
      await effects.clearChannel(auth.tenantId, thingsId, channel);
    },
  };
}
