import type { Dbc } from './dbc.model.ts';

/**
 * DBC files come in UTF-8 or in a legacy single-byte code page (CANdb++ writes Windows-1252);
 * text that is not valid UTF-8 is read as Latin-1, which maps every byte and never fails.
 */
export function dbcText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('latin1').decode(bytes);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The messages view stored beside the file (every message, decodable or not). */
export function summarizeDbc(dbc: Dbc) {
  return dbc.messages.map((m) => ({
    id: m.id,
    ext: m.ext,
    name: m.name,
    length: m.length,
    fd: m.fd,
    transmitter: m.transmitter,
    cycle_time: m.cycleTime ?? null,
    comment: m.comment ?? null,
    signals: m.signals.map((s) => ({
      name: s.name,
      start_bit: s.startBit,
      length: s.length,
      byte_order: s.byteOrder,
      signed: s.signed,
      value_type: s.valueType,
      factor: s.factor,
      offset: s.offset,
      min: s.min,
      max: s.max,
      unit: s.unit,
      multiplexer: s.isMultiplexer ? 'switch' : s.multiplexer ? s.multiplexer.switchName : null,
      comment: s.comment ?? null,
      values: s.values?.size ? Object.fromEntries([...s.values].map(([k, v]) => [String(k), v])) : null,
    })),
  }));
}
