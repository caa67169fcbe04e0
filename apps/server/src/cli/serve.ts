import { buildApp, type LoggerheadApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { listen, PortInUseError } from '../ingest/broker.ts';
import { secureDataDir } from '../lib/data-dir.ts';
import { lockDataDir } from '../lib/data-dir-lock.ts';
import { VERSION } from '../version.ts';

export async function serve(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('Usage: loggerhead serve\n\nStarts the server. All settings come from the environment (see `loggerhead --help`).');
    return 0;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`loggerhead: configuration error: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let unlock = () => {};
  let app: LoggerheadApp | null = null;
  try {
    // What the server writes (database files, uploads, exports) is for its own user only.
    process.umask(0o077);
    secureDataDir(config.dataDir);
    if (!config.databaseUrl) unlock = lockDataDir(config.dataDir);
    app = await buildApp(config);
    // Again now the database is open: PGlite unpacks a new cluster with its archive's modes.
    secureDataDir(config.dataDir);
    await app.ready();
    const port = await listen(app.server, config.port, config.host, 'PORT');
    // PORT=0 picks a free port: links sent to devices (recall upload, firmware download) use the real one.
    if (!process.env.PUBLIC_URL && config.port === 0) {
      const host = /^(0\.0\.0\.0|::)$/.test(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
      config.publicUrl = `http://${host}:${port}`;
    }
    const a = app;
    const stop = async (signal: string) => {
      a.log.info(`${signal} received, shutting down`);
      const force = setTimeout(() => process.exit(1), 15_000);
      force.unref();
      await a.close().catch(() => {});
      unlock();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
    const lines = [
      '',
      `  Loggerhead ${VERSION} is running`,
      `  Console:  http://localhost:${port}/`,
      `  API:      http://localhost:${port}/v1   (OpenAPI: /v1/docs)`,
      `  MQTT:     ${config.mqttUrl ? config.mqttUrl.replace(/\/\/[^@/]*@/, '//') : `mqtt://localhost:${app.ctx.broker.port()}`}`,
      `  Database: ${app.ctx.database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'PostgreSQL server (DATABASE_URL)'}`,
    ];
    if (app.ctx.initialAdminPassword) {
      lines.push('', '  First system manager created — note the password, it is shown only once:');
      lines.push('    username: admin', `    password: ${app.ctx.initialAdminPassword}`);
    } else if (app.ctx.adminCreated) {
      lines.push('', '  First system manager created: username admin, password as set in LOGGERHEAD_ADMIN_PASSWORD');
    }
    console.log(`${lines.join('\n')}\n`);
    return await new Promise<number>(() => {});
  } catch (e) {
    unlock();
    await app?.close().catch(() => {});
    if (e instanceof PortInUseError) {
      console.error(`loggerhead: ${e.message}`);
      return 2;
    }
    console.error(`loggerhead: ${(e as Error).message}`);
    return 1;
  }
}
