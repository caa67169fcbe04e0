import { timingSafeEqual } from 'node:crypto';
import { type BrokerVerdict, ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { clientIdDevice, deviceMayConnect, deviceMayPublish, deviceMaySubscribe } from '../../ingest/device-acl.ts';
import { ApiError } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';

const R = Routes.broker;
const tags = ['broker'];
const errors = { 401: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * HTTP authentication and authorization of devices for an external broker that asks an endpoint
 * (EMQX): the same rules as the embedded broker. A username that is not a device ID is `ignore`d,
 * so the broker's own accounts (the servers') are decided by its next source — unless it asks for a
 * device's client id, which is denied: the broker would close that device's connection and hand its
 * session (its queued commands) to the newcomer; a client id of the device form is kept for
 * devices. A device's rights hold only under its own client id.
 */
export function brokerRoutes(app: LoggerheadApp, ctx: AppContext) {
  const secret = ctx.config.brokerAuthSecret;
  const devices = ctx.ingest.devices;
  const checkCaller = (authorization: string | undefined) => {
    if (!secret) throw new ApiError(404);
    const given = Buffer.from(authorization ?? '');
    const expected = Buffer.from(`Bearer ${secret}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError(401, 'http.401');
  };

  route(app, R.auth, { tags, errors }, async (req): Promise<BrokerVerdict> => {
    checkCaller(req.headers.authorization);
    const { clientid, username, password } = req.body;
    const known = await devices.identify(username);
    // Client ids of the device form are the devices' own, known yet or not.
    if (!known) return { result: clientIdDevice(clientid) ? 'deny' : 'ignore' };
    if (!deviceMayConnect(username, clientid)) return { result: 'deny' };
    const device = await devices.authenticate(username, password);
    if (!device) {
      await devices.eventThrottled(known, 'auth-failed', 'connection refused: wrong key', { ip: req.ip });
      return { result: 'deny' };
    }
    return { result: 'allow', is_superuser: false };
  });

  route(app, R.acl, { tags, errors }, async (req): Promise<BrokerVerdict> => {
    checkCaller(req.headers.authorization);
    const { clientid, username, topic, action } = req.body;
    if (!(await devices.identify(username))) return { result: 'ignore' };
    if (!deviceMayConnect(username, clientid)) return { result: 'deny' };
    const ok = action === 'publish' ? deviceMayPublish(username, topic) : deviceMaySubscribe(username, topic);
    return { result: ok ? 'allow' : 'deny' };
  });
}
