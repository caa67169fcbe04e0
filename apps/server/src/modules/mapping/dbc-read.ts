import { dbcText, parseDbc, summarizeDbc } from '@loggerhead/can';
import type { DbcMessageInfo } from '@loggerhead/contract';

export interface DbcLimits {
  maxMessages: number;
  maxSignals: number;
}

export interface DbcWarningView {
  line: number;
  col: number;
  reason: string;
}

/** What reading an uploaded DBC file gives: its message view, or why it is refused. */
export type DbcRead =
  | {
      ok: true;
      /**
       * The messages view (`DbcMessageInfo[]`) as UTF-8 JSON: bytes cross back from the worker by
       * transfer, at no cost, where objects (or even one long string) are rebuilt piece by piece on
       * the server's thread; the database takes the text as it is.
       */
      summary_json: Uint8Array;
      /** `Message.Signal` of every signal, one a line (UTF-8), for the strategy checks. */
      names: Uint8Array;
      message_count: number;
      signal_count: number;
      warnings: DbcWarningView[];
    }
  | { ok: false; refused: 'invalid'; error: DbcWarningView }
  | { ok: false; refused: 'too-many-messages' | 'too-many-signals'; count: number; limit: number };

/** Definitions at the start of a line: `BO_ ` messages, ` SG_ ` signals (multiplexed ones too). */
const countLines = (text: string, re: RegExp) => {
  let n = 0;
  re.lastIndex = 0;
  while (re.exec(text)) n++;
  return n;
};

/**
 * An uploaded DBC file, read: decoded to text, its messages and signals counted against the limits
 * before it is parsed (a file over them costs one linear scan, not the parse's time and memory),
 * then parsed and summarised. Pure computation: runs on a worker thread (dbc-parse.worker.mjs).
 */
export function readDbc(bytes: Uint8Array, limits: DbcLimits): DbcRead {
  const content = dbcText(bytes);
  const messages = countLines(content, /^[ \t]*BO_[ \t]/gm);
  if (messages > limits.maxMessages) return { ok: false, refused: 'too-many-messages', count: messages, limit: limits.maxMessages };
  const signals = countLines(content, /^[ \t]*SG_[ \t]/gm);
  if (signals > limits.maxSignals) return { ok: false, refused: 'too-many-signals', count: signals, limit: limits.maxSignals };
  const r = parseDbc(content);
  if (!r.ok) return { ok: false, refused: 'invalid', error: { line: r.error.line, col: r.error.col, reason: r.error.reason } };
  const summary = summarizeDbc(r.dbc);
  const message_count = summary.length;
  const signal_count = summary.reduce((n, m) => n + m.signals.length, 0);
  // The scan counts definitions as written; what the parser made of them is bound the same way.
  if (message_count > limits.maxMessages)
    return { ok: false, refused: 'too-many-messages', count: message_count, limit: limits.maxMessages };
  if (signal_count > limits.maxSignals) return { ok: false, refused: 'too-many-signals', count: signal_count, limit: limits.maxSignals };
  const names: string[] = [];
  for (const m of summary) for (const sg of m.signals) names.push(`${m.name}.${sg.name}`);
  const utf8 = new TextEncoder();
  return {
    ok: true,
    summary_json: utf8.encode(JSON.stringify(summary satisfies DbcMessageInfo[])),
    names: utf8.encode(names.join('\n')),
    message_count,
    signal_count,
    warnings: r.warnings.map((w) => ({ line: w.line, col: w.col, reason: w.reason })),
  };
}
