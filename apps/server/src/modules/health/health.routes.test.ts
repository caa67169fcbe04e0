import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { App } from '../../lib/fastify.ts';
import { healthRoutes } from './health.routes.ts';

const lag = { p99_ms: 12.5, max_ms: 40, window_s: 13.2 };

async function health(db: boolean, broker: boolean, diskLow = false) {
  const app = Fastify().withTypeProvider() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  healthRoutes(app, { db: async () => db, broker: () => broker, diskLow: () => diskLow, version: '9.9.9', lag: () => lag });
  try {
    const res = await app.inject({ method: 'GET', url: '/v1/health' });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
  }
}

describe('GET /v1/health', () => {
  it('answers 200 ok when the database and the broker are up', async () => {
    expect(await health(true, true)).toEqual({
      status: 200,
      body: { status: 'ok', db: 'up', broker: 'up', disk: 'ok', version: '9.9.9', event_loop: lag },
    });
  });

  it('answers 503 degraded, naming what is down, when either is down', async () => {
    expect(await health(false, true)).toEqual({
      status: 503,
      body: { status: 'degraded', db: 'down', broker: 'up', disk: 'ok', version: '9.9.9', event_loop: lag },
    });
    expect(await health(true, false)).toEqual({
      status: 503,
      body: { status: 'degraded', db: 'up', broker: 'down', disk: 'ok', version: '9.9.9', event_loop: lag },
    });
  });

  it('answers 503 degraded with disk low when DATA_DIR is under its free-space watermark', async () => {
    expect(await health(true, true, true)).toEqual({
      status: 503,
      body: { status: 'degraded', db: 'up', broker: 'up', disk: 'low', version: '9.9.9', event_loop: lag },
    });
  });
});
