import type { Command } from '../main.ts';
import { dbc } from './dbc.ts';
import { decode } from './decode.ts';
import { remoteDevice } from './remote-device.ts';
import { serve } from './serve.ts';
import { simulate } from './simulate.ts';

/** Subcommands of `loggerhead`. A feature adds its command here (one line). */
export const commands: Record<string, { summary: string; run: Command }> = {
  serve: { summary: 'start the console, API and embedded broker (what `npm start` runs)', run: serve },
  simulate: { summary: 'connect like a logger and replay a log, or run a synthetic fleet', run: simulate },
  dbc: { summary: 'check DBC files (`dbc check FILE…`): messages, signals, warnings, errors at line:col', run: dbc },
  'remote-device': { summary: 'connect like a logger that answers commands, config, file recall, firmware and UDS', run: remoteDevice },
  decode: { summary: 'decode a CAN log (candump, ASC, BLF) with a DBC file to JSON lines or CSV', run: decode },
};
