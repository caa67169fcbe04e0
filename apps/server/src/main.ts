import { commands } from './cli/index.ts';
import { VERSION } from './version.ts';

export type Command = (args: string[]) => Promise<number>;

export function usage(): string {
  const width = Math.max(...Object.keys(commands).map((k) => k.length));
  return [
    `loggerhead ${VERSION} — cloud console for CAN-bus data loggers`,
    '',
    'Usage: loggerhead <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `loggerhead <command> --help` for the options of a command.',
    'Configuration is read from the environment: PORT, MQTT_PORT, DATA_DIR, DATABASE_URL, MQTT_URL,',
    'SECRETS_KEY, LOGGERHEAD_ADMIN_PASSWORD, SMTP_URL, SMS_URL, PUBLIC_URL, LOG_LEVEL (see README).',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 1;
  }
  if (name === '--version' || name === '-v') {
    console.log(VERSION);
    return 0;
  }
  const cmd = commands[name];
  if (!cmd) {
    console.error(`loggerhead: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    // A command fails with one line, never a stack trace (LOG_LEVEL=debug shows it).
    if (process.env.LOG_LEVEL === 'debug') console.error(e);
    else console.error(`loggerhead ${name}: ${(e as Error)?.message ?? e}`);
    return 1;
  }
}
