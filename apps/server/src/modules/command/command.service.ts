import { randomUUID } from 'node:crypto';
import { downTopic } from '@loggerhead/can/protocol/topics.ts';
import {
  type Command,
  type CommandEnvelope,
  type CommandIssue,
  type CommandResponseRecord,
  commandTimeout,
  DEFAULT_COMMAND_EXPIRY_MS,
  FINAL_COMMAND_STATES,
} from '@loggerhead/contract';
import type { z } from 'zod';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Broker } from '../../ingest/broker.ts';
import type { Auth } from '../../lib/auth.ts';
import { Batcher } from '../../lib/batcher.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import { type CommandRepository, type CommandRow, commandRepository, type ResponseRow, type TargetRow } from './command.repository.ts';

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** A device command changed state (sent, delivered, progress, answered, timed out…). */
    'command.updated': { tenantId: string; thingsId: string; command: Command };
  }
}

/** A response as the pipeline parsed it; `partial: true` marks a progress report (more follow). */
export interface DeviceResponse {
  correlation_id: string;
  code: number;
  message?: string;
  payload?: unknown;
  partial?: boolean;
}

/** Checks (and normalises) an operation's params for a device; throws ApiError on bad input. */
export type ParamsValidator = (params: Record<string, unknown>, target: TargetRow) => Record<string, unknown>;
export type ResponseListener = (cmd: CommandRow, resp: DeviceResponse) => void | Promise<void>;

export function toCommand(r: CommandRow): Command {
  return {
    id: r.id,
    correlation_id: r.correlation_id,
    things_id: r.things_id,
    operation_name: r.operation_name,
    operation_params: r.operation_params,
    description: r.description,
    state: r.state,
    code: r.code,
    message: r.message,
    result: r.result ?? null,
    progress: r.progress,
    timeout_ms: r.timeout_ms,
    created_at: ms(r.created_at) ?? 0,
    sent_at: ms(r.sent_at),
    delivered_at: ms(r.delivered_at),
    answered_at: ms(r.answered_at),
    deadline_at: ms(r.deadline_at) ?? 0,
  };
}

const toResponse = (r: ResponseRow): CommandResponseRecord => ({
  id: Number(r.id),
  correlation_id: r.correlation_id,
  things_id: r.things_id,
  code: r.code,
  message: r.message,
  payload: r.payload ?? null,
  partial: r.partial,
  received_at: ms(r.received_at) ?? 0,
});

/** Turns a zod failure into the spec §8 error body list (one item per field). */
export function zodToApiError(err: z.ZodError, prefix = 'operation_params'): ApiError {
  return ApiError.many(
    400,
    err.issues.map((i) => {
      const field = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      return { code: 'command.invalid-params', message: `${field}: ${i.message}`, field };
    }),
  );
}

export interface CommandServiceDeps {
  raw: RawSql;
  broker: Broker;
  events: EventBus;
  log: { warn: (o: object, m: string) => void };
}

/**
 * Device commands: issue (send now, or queue for an offline device), track honestly
 * (queued → sent → delivered → answered/failed, or timeout/expired), match responses by
 * correlation id, and let other features wait for or listen to their commands.
 */
export function commandService(deps: CommandServiceDeps, repo: CommandRepository = commandRepository(deps.raw)) {
  const { raw, broker, events, log } = deps;
  const validators = new Map<string, ParamsValidator>();
  const listeners = new Map<string, ResponseListener[]>();
  const waiters = new Map<string, Set<(c: CommandRow) => void>>();
  let previouslyOnline = new Set<string>();

  function changed(row: CommandRow) {
    events.emit('command.updated', { tenantId: row.tenant_id, thingsId: row.things_id, command: toCommand(row) });
    if (FINAL_COMMAND_STATES.includes(row.state)) {
      for (const w of waiters.get(row.correlation_id) ?? []) w(row);
      waiters.delete(row.correlation_id);
    }
  }

  async function publish(row: CommandRow, deviceId: string): Promise<boolean> {
    try {
      await broker.publish(downTopic(deviceId, 'cmd'), new TextEncoder().encode(JSON.stringify(row.envelope)));
      return true;
    } catch (err) {
      log.warn({ err, correlationId: row.correlation_id }, 'command publish failed');
      await repo.unsend(row.id);
      return false;
    }
  }

  /** Claims of devices that (re)subscribed, together: one statement for a fleet coming online at once. */
  const claims = new Batcher<string, CommandRow[]>(async (thingsIds) => {
    const rows = await repo.claimQueuedMany([...new Set(thingsIds)]);
    const first = new Map<string, number>();
    thingsIds.forEach((id, i) => {
      if (!first.has(id)) first.set(id, i);
    });
    const out: CommandRow[][] = thingsIds.map(() => []);
    for (const r of rows) out[first.get(r.things_id) as number].push(r);
    return out;
  }, 1000);

  /** Sends what is queued for a device that just subscribed to its downlinks, oldest first. */
  async function flushOnSubscribe(thingsId: string, deviceId: string) {
    for (const row of await claims.call(thingsId)) {
      if (await publish(row, deviceId)) changed(row);
    }
  }

  /** Sends what is queued for an online device, oldest first. */
  async function flush(thingsId: string, deviceId: string, ids?: string[]) {
    for (const row of await repo.claimQueued(thingsId, ids)) {
      if (await publish(row, deviceId)) changed(row);
    }
  }

  async function issueTo(target: TargetRow, body: CommandIssue, createdBy: string | null): Promise<CommandRow> {
    const validate = validators.get(body.operation_name);
    const params = validate ? validate(body.operation_params ?? {}, target) : (body.operation_params ?? {});
    const correlationId = randomUUID();
    const timeoutMs = body.timeout_ms ?? commandTimeout(body.operation_name);
    const expiresAt = new Date(Date.now() + (body.expires_in_ms ?? DEFAULT_COMMAND_EXPIRY_MS));
    const envelope: CommandEnvelope = {
      correlation_id: correlationId,
      description: body.description ?? null,
      headers: body.headers ?? {},
      info_model_id: target.info_model_id,
      message_type: 0,
      payload: { operation_name: body.operation_name, operation_params: params },
      tenant_id: target.tenant_id,
      things_id: target.id,
      things_type: target.thing_type,
      third_things_id: target.third_things_id,
      expires_at: expiresAt.getTime(),
    };
    const row = await repo.insert({
      tenantId: target.tenant_id,
      thingsId: target.id,
      correlationId,
      operation: body.operation_name,
      params,
      description: body.description ?? null,
      headers: body.headers ?? {},
      envelope,
      timeoutMs,
      expiresAt,
      createdBy,
    });
    if (!target.is_online) {
      changed(row);
      return row;
    }
    await flush(target.id, target.third_things_id, [row.id]);
    return (await repo.byCorrelation(target.id, correlationId)) ?? row;
  }

  async function target(tenantId: string, thingsId: string): Promise<TargetRow> {
    const t = await repo.target(tenantId, thingsId);
    if (!t) throw notFound('Device not found');
    return t;
  }

  return {
    /** Lets a feature check the params of its operation before anything is sent. */
    registerValidator(operation: string, v: ParamsValidator) {
      validators.set(operation, v);
    },
    /** Responses (partial and final) to commands of an operation. */
    onResponse(operation: string, l: ResponseListener) {
      listeners.set(operation, [...(listeners.get(operation) ?? []), l]);
    },

    target,

    /** Issues a command for a user with write access to the device. */
    async issue(auth: Auth, thingsId: string, body: CommandIssue): Promise<Command> {
      await requireDevice(raw, auth, thingsId, 'write');
      return toCommand(await issueTo(await target(auth.tenantId, thingsId), body, auth.userId));
    },

    /**
     * Spec §7 device test: the message goes out now with a deadline of `timeout_ms` (a device offline
     * leaves it expired, not waiting in its queue) and the answer is the device's responses as received.
     */
    async deviceTest(
      auth: Auth,
      thingsId: string,
      body: { operation_name: string; operation_params: Record<string, unknown>; timeout_ms: number },
    ) {
      await requireDevice(raw, auth, thingsId, 'write');
      const started = Date.now();
      const row = await issueTo(
        await target(auth.tenantId, thingsId),
        {
          operation_name: body.operation_name,
          operation_params: body.operation_params,
          description: 'device test',
          timeout_ms: body.timeout_ms,
          expires_in_ms: Math.max(1000, body.timeout_ms),
        },
        auth.userId,
      );
      const final = await this.waitFinal(row);
      const { rows } = await repo.responses(auth.tenantId, null, {
        thingsId,
        ids: [row.correlation_id],
        startDate: null,
        offset: 0,
        limit: 100,
      });
      return {
        command: toCommand(final),
        sent: row.envelope,
        responses: rows.map(toResponse),
        elapsed_ms: Date.now() - started,
      };
    },

    /** Issues a command on behalf of a feature (access already checked, or a scheduled job). */
    async issueRaw(t: TargetRow, body: CommandIssue, createdBy: string | null): Promise<CommandRow> {
      return issueTo(t, body, createdBy);
    },

    /**
     * Resolves with the command once it is final (answered, failed, timeout, expired, cancelled).
     * Listens in-process and also reads the database, so a response handled by another server copy counts.
     */
    async waitFinal(row: CommandRow, pollMs = 500): Promise<CommandRow> {
      if (FINAL_COMMAND_STATES.includes(row.state)) return row;
      return new Promise<CommandRow>((resolve) => {
        let done = false;
        const finish = (c: CommandRow) => {
          if (done) return;
          done = true;
          clearInterval(timer);
          waiters.get(row.correlation_id)?.delete(finish);
          resolve(c);
        };
        const set = waiters.get(row.correlation_id) ?? new Set();
        set.add(finish);
        waiters.set(row.correlation_id, set);
        const timer = setInterval(() => {
          // A failed read is tried again at the next tick (a database hiccup must not end the process).
          void repo
            .byCorrelation(row.things_id, row.correlation_id)
            .then((c) => {
              if (c && FINAL_COMMAND_STATES.includes(c.state)) finish(c);
            })
            .catch(() => {});
        }, pollMs);
        timer.unref();
      });
    },

    /**
     * `waitFinal` for a command known by its correlation id (a feature that noted the id and is
     * resuming after a restart); null when the device has no such command.
     */
    async waitFinalById(thingsId: string, correlationId: string): Promise<CommandRow | null> {
      const row = await repo.byCorrelation(thingsId, correlationId);
      return row ? this.waitFinal(row) : null;
    },

    async get(auth: Auth, thingsId: string, correlationId: string): Promise<Command> {
      await requireDevice(raw, auth, thingsId, 'read');
      const r = await repo.get(auth.tenantId, thingsId, correlationId);
      if (!r) throw notFound('Command not found');
      return toCommand(r);
    },

    async page(
      auth: Auth,
      thingsId: string,
      q: { current_page: number; page_size: number; correlation_id?: string; operation_name?: string; state?: string },
    ) {
      await requireDevice(raw, auth, thingsId, 'read');
      const { total, rows } = await repo.page(auth.tenantId, thingsId, q);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toCommand) };
    },

    async cancel(auth: Auth, thingsId: string, correlationId: string): Promise<Command> {
      await requireDevice(raw, auth, thingsId, 'write');
      const r = await repo.get(auth.tenantId, thingsId, correlationId);
      if (!r) throw notFound('Command not found');
      if (r.state !== 'queued') throw conflict('command.not-cancellable');
      const done = await repo.finish(r.id, { state: 'cancelled', code: null, message: 'cancelled by user' });
      if (!done) throw conflict('command.not-cancellable');
      changed(done);
      return toCommand(done);
    },

    /** Spec §7 message responses: by correlation ids, from a start date, skipping `offset` already seen. */
    async responses(
      auth: Auth,
      thingsId: string | undefined,
      q: { message_ids?: string; start_date?: number; offset: number; page_size: number },
    ) {
      if (thingsId) await requireDevice(raw, auth, thingsId, 'read');
      const ids = q.message_ids
        ? q.message_ids
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : null;
      if (ids && ids.length > 200) throw badRequest('http.400', 'At most 200 message ids', 'message_ids');
      const { total, rows } = await repo.responses(auth.tenantId, thingsId ? null : restrictedUser(auth), {
        thingsId,
        ids,
        startDate: q.start_date !== undefined ? new Date(q.start_date) : null,
        offset: q.offset,
        limit: q.page_size,
      });
      return { total, offset: q.offset, list: rows.map(toResponse) };
    },

    /** Device → cloud: a response on `up/resp`, from the device the broker authenticated. */
    async handleResponse(device: { tenantId: string; thingsId: string }, resp: DeviceResponse) {
      const partial = resp.partial === true;
      await repo.addResponse(device, {
        correlationId: resp.correlation_id,
        code: resp.code,
        message: resp.message ?? null,
        payload: resp.payload,
        partial,
      });
      const cmd = await repo.byCorrelation(device.thingsId, resp.correlation_id);
      if (!cmd) return; // not ours (or another device's): stored, never matched
      let row: CommandRow | null;
      if (partial && resp.code === 0) {
        const p = (resp.payload as { progress?: unknown } | undefined)?.progress;
        row = await repo.progress(cmd.id, typeof p === 'number' ? Math.max(0, Math.min(100, Math.round(p))) : null, resp.payload);
      } else {
        row = await repo.finish(cmd.id, {
          state: resp.code === 0 ? 'answered' : 'failed',
          code: resp.code,
          message: resp.message ?? null,
          result: resp.payload ?? null,
        });
      }
      if (row) changed(row);
      // The response is stored and matched; a feature failing on it must not make the device re-send it for ever.
      for (const l of listeners.get(cmd.operation_name) ?? []) {
        try {
          await l(row ?? cmd, resp);
        } catch (err) {
          log.warn({ err, correlationId: cmd.correlation_id, operation: cmd.operation_name }, 'response handler failed');
        }
      }
    },

    /** The embedded broker saw the device's PUBACK for a command: delivered. */
    async handleAck(thingsId: string, payload: Uint8Array) {
      let id: unknown;
      try {
        id = JSON.parse(Buffer.from(payload).toString('utf8'))?.correlation_id;
      } catch {
        return;
      }
      if (typeof id !== 'string') return;
      const row = await repo.delivered(thingsId, id);
      if (row) changed(row);
    },

    /** A device (re)subscribed to its downlinks: send what waited for it (claimed together with other devices'). */
    flush: flushOnSubscribe,

    /** Once a second: time-outs, expiries, and queued commands of devices that are online. */
    async sweep() {
      for (const row of await repo.sweep()) changed(row);
      const online = await repo.onlineWithQueued();
      const now = new Set(online.map((o) => o.things_id));
      // Online for a whole tick: its downlink subscription is in place (a fresh connection may not have subscribed yet).
      for (const o of online) if (previouslyOnline.has(o.things_id)) await flush(o.things_id, o.third_things_id);
      previouslyOnline = now;
    },
  };
}

export type CommandService = ReturnType<typeof commandService>;
