import type { ExportFormat } from '@loggerhead/contract/schemas/data.ts';
import type { DownloadTemplate } from '@loggerhead/contract/schemas/data-service.ts';
import { formatCanId, parseIdList } from '../../../components/data-view/can-text.ts';
import type { TemplateBody } from '../api/data-service.api.ts';

/** What the template dialog edits: lists as text, the range as "last N hours" or a fixed span. */
export interface TemplateValues {
  name: string;
  things_ids: string[];
  format: ExportFormat;
  plugin_id?: string | null;
  channels: string;
  ids: string;
  range_mode: 'last' | 'fixed';
  last_hours?: number | null;
  fixed?: [number, number];
}

const SEP = /[\s,;，；]+/;

/** CAN channels typed as "0, 1": each 0–255; null when one is not. */
export function parseChannels(text: string | undefined): number[] | null {
  const parts = (text ?? '').split(SEP).filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    out.push(Number(p));
  }
  return [...new Set(out)];
}

export const idsToText = (ids: number[]) => ids.map((id) => formatCanId(id, id > 0x7ff)).join(', ');

export function initialOf(r: DownloadTemplate | null, now: number): TemplateValues {
  if (!r)
    return {
      name: '',
      things_ids: [],
      format: 'csv',
      plugin_id: null,
      channels: '',
      ids: '',
      range_mode: 'last',
      last_hours: 24,
      fixed: [now - 86_400_000, now],
    };
  const fixed = r.begin_time !== null && r.end_time !== null;
  return {
    name: r.name,
    things_ids: r.things_ids,
    format: r.format,
    plugin_id: r.plugin_id,
    channels: r.channels.join(', '),
    ids: idsToText(r.ids),
    range_mode: fixed ? 'fixed' : 'last',
    last_hours: r.last_hours ?? 24,
    fixed: fixed ? [r.begin_time as number, r.end_time as number] : [now - 86_400_000, now],
  };
}

/** The request body of the dialog's values (the lists were checked by the form's rules). */
export function bodyOf(v: TemplateValues): TemplateBody {
  const fixed = v.range_mode === 'fixed' && v.fixed;
  return {
    name: v.name.trim(),
    things_ids: v.things_ids,
    format: v.format,
    plugin_id: v.format === 'csv' && v.plugin_id ? v.plugin_id : null,
    channels: parseChannels(v.channels) ?? [],
    ids: parseIdList(v.ids) ?? [],
    begin_time: fixed ? v.fixed?.[0] : null,
    end_time: fixed ? v.fixed?.[1] : null,
    last_hours: fixed ? null : (v.last_hours ?? null),
  };
}
