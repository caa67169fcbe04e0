import type { Command } from '../main.ts';

// Each command is loaded when run: `decode` or `dbc` should not pay for loading the whole server.
const lazy =
  <K extends string>(load: () => Promise<Record<K, Command>>, name: K): Command =>
  async (args) =>
    (await load())[name](args);

/** Subcommands of `loggerhead`. A feature adds its command here (one line). */
export const commands: Record<string, { summary: string; run: Command }> = {
  serve: { summary: 'start the console, API and embedded broker (what `npm start` runs)', run: lazy(() => import('./serve.ts'), 'serve') },
  simulate: {
    summary: 'connect like a logger and replay a log, or run a synthetic fleet',
    run: lazy(() => import('./simulate.ts'), 'simulate'),
  },
  dbc: {
    summary: 'check DBC files (`dbc check FILE…`): messages, signals, warnings, errors at line:col',
    run: lazy(() => import('./dbc.ts'), 'dbc'),
  },
  'remote-device': {
    summary: 'connect like a logger that answers commands, config, file recall, firmware and UDS',
    run: lazy(() => import('./remote-device.ts'), 'remoteDevice'),
  },
  decode: {
    summary: 'decode a CAN log (candump, ASC, BLF) with a DBC file to JSON lines or CSV',
    run: lazy(() => import('./decode.ts'), 'decode'),
  },
};
