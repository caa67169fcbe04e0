import { readFile } from 'node:fs/promises';
// The parser alone: a command that reads a DBC loads no more of the library than it needs.
import type { DbcParseResult } from '@loggerhead/can/dbc/dbc.model.ts';
import { parseDbc } from '@loggerhead/can/dbc/dbc.parser.ts';

const USAGE = `Usage: loggerhead dbc check [--warnings] FILE...

Parses each DBC file and prints one line per file: name, messages, signals, warnings.
A file that cannot be parsed prints FILE:LINE:COL reason; the exit status is then 1.
  --warnings   also list each warning as FILE:LINE:COL reason`;

/** DBC files come as UTF-8 or as Windows-1252 (CANdb++); take UTF-8 when it is valid. */
export function decodeDbcText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export async function readDbcFile(path: string): Promise<DbcParseResult> {
  return parseDbc(decodeDbcText(await readFile(path)));
}

export async function dbc(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h') {
    console.log(USAGE);
    return sub ? 0 : 2;
  }
  if (sub !== 'check') {
    console.error(`loggerhead dbc: unknown subcommand "${sub}"\n\n${USAGE}`);
    return 2;
  }
  const listWarnings = rest.includes('--warnings');
  const files = rest.filter((a) => a !== '--warnings');
  if (files.length === 0 || files.some((f) => f.startsWith('-'))) {
    console.error(USAGE);
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    let r: DbcParseResult;
    try {
      r = await readDbcFile(file);
    } catch (e) {
      console.error(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
      failed++;
      continue;
    }
    if (!r.ok) {
      console.error(`${file}:${r.error.line}:${r.error.col} ${r.error.reason}`);
      failed++;
      continue;
    }
    const signals = r.dbc.messages.reduce((n, m) => n + m.signals.length, 0);
    console.log(`${file}: ${r.dbc.messages.length} messages, ${signals} signals, ${r.warnings.length} warnings`);
    if (listWarnings) for (const w of r.warnings) console.log(`  ${file}:${w.line}:${w.col} ${w.reason}`);
  }
  if (files.length > 1) console.log(`${files.length - failed} of ${files.length} files OK`);
  return failed ? 1 : 0;
}
