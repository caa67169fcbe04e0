import type { ChannelBinding } from '@loggerhead/contract/schemas/dbc.ts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { dbcMessagesQuery, seriesQuery, strategyQuery } from '../../../api/dbc.queries.ts';
import { signalRef } from '../lib/names.ts';

export interface SignalOption {
  /** `Message.Signal`. */
  value: string;
  unit: string;
  /** Samples are stored for it on this channel. */
  stored: boolean;
}

/**
 * The signals one can plot on a channel: those its binding decodes (the strategy's, or every
 * signal of the DBC file) and those with stored samples (e.g. from an earlier binding).
 */
export function useChannelSignals(tenantId: string, thingsId: string, channel: number | null, binding: ChannelBinding | undefined) {
  const strategy = useQuery(strategyQuery(tenantId, binding?.strategy_id ?? null));
  const messages = useQuery(dbcMessagesQuery(tenantId, binding?.dbc_id ?? null));
  const series = useQuery({ ...seriesQuery(tenantId, thingsId, channel ?? 0), enabled: channel !== null });
  const options = useMemo(() => {
    const out = new Map<string, SignalOption>();
    const units = new Map<string, string>();
    for (const m of messages.data ?? []) for (const s of m.signals) units.set(signalRef(m.name, s.name), s.unit);
    if (binding?.strategy_id) {
      for (const s of strategy.data?.signals ?? []) {
        const ref = signalRef(s.message, s.signal);
        out.set(ref, { value: ref, unit: units.get(ref) ?? '', stored: false });
      }
    } else for (const [ref, unit] of units) out.set(ref, { value: ref, unit, stored: false });
    for (const s of series.data ?? []) {
      const ref = signalRef(s.message, s.signal);
      out.set(ref, { value: ref, unit: s.unit, stored: s.samples > 0 });
    }
    // Signals with data first, then by name.
    return [...out.values()].sort((a, b) => Number(b.stored) - Number(a.stored) || a.value.localeCompare(b.value));
  }, [binding?.strategy_id, strategy.data, messages.data, series.data]);
  return { options, loading: messages.isLoading || strategy.isLoading || series.isLoading };
}
