import { runFlash } from '@loggerhead/can/uds/flash.ts';
import { bytesToHex, decodeResponse, dtcStatusNames, dtcToString, encodeRequest, hexToBytes, parseDtcs } from '@loggerhead/can/uds/uds.ts';
import { Operations, resolveTextRefs, type UdsTransport } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import type { TargetRow } from '../command/command.repository.ts';
import type { CommandService } from '../command/command.service.ts';
import type { EcuService } from '../ecu/ecu.service.ts';
import { faultCodeName } from '../ecu/ecu-files.ts';
import { requireDevice } from '../things/things.access.ts';
import { type JobChange, type JobRow, udsRepository } from './uds.repository.ts';

/** Device types whose description names CAN FD do CAN FD (CANDTU-200/400/800; not the CANDTU-100). */
export const supportsFd = (t: Pick<TargetRow, 'type_name' | 'type_description'>) =>
  // A platform type's description is a catalogue reference (decision 0178): read in its words.
  /CAN\s?FD/i.test(resolveTextRefs('en', `${t.type_description ?? ''} ${t.type_name}`));

declare module '../../lib/events.ts' {
  interface AppEvents {
    /** An ECU flashing job moved to a step, progressed or ended. */
    'ecu-flash.job': { tenantId: string; thingsId: string; job: ReturnType<typeof toJob> };
  }
}

const toJob = (r: JobRow) => ({
  id: r.id,
  things_id: r.things_id,
  ecu_id: r.ecu_id,
  channel: r.channel,
  state: r.state,
  step: r.step,
  progress: r.progress,
  reason: r.reason,
  created_at: new Date(r.created_at).getTime(),
  finished_at: r.finished_at ? new Date(r.finished_at).getTime() : null,
});

/**
 * UDS diagnosis through the logger: each request is a `uds.request` command the logger relays to
 * the ECU with ISO-TP; DTCs read (named from the ECU's fault-code file) and cleared; the ECU
 * upgrade runs the standard flashing sequence step by step, with progress, cancel and the failing
 * step named.
 */
export function udsService(deps: {
  raw: RawSql;
  commands: CommandService;
  ecus: EcuService;
  events: EventBus;
  log: { warn: (o: object, m: string) => void };
  /** This server copy's id (`ctx.jobs.owner`): the flash jobs it runs name it. */
  owner?: string;
}) {
  const { raw, commands, ecus } = deps;
  const repo = udsRepository(raw);
  const running = new Map<string, { cancelled: boolean }>();

  async function resolve(auth: Auth, thingsId: string, tr: UdsTransport) {
    await requireDevice(raw, auth, thingsId, 'write');
    const target = await commands.target(auth.tenantId, thingsId);
    if (tr.fd && !supportsFd(target)) throw badRequest('uds.canfd-not-supported', undefined, 'transport.fd');
    const ecu = tr.ecu_id ? await ecus.row(auth, tr.ecu_id) : null;
    const tx = tr.request_address ?? Number(ecu?.physical_address);
    const rx = tr.response_address ?? Number(ecu?.response_address);
    const ext = (tr.frame_type ?? ecu?.frame_type) === 'extended';
    return {
      target,
      ecu,
      params: {
        channel: tr.channel,
        tx_id: tx,
        rx_id: rx,
        ext,
        fd: tr.fd,
        fill_byte: tr.fill_byte,
        st_min: tr.st_min,
        timeout_ms: tr.timeout_ms,
        enhanced_timeout_ms: tr.enhanced_timeout_ms,
        fc_timeout_ms: tr.flow_control_timeout_ms,
      },
    };
  }

  /** One request → the final response PDU (the logger waits out response pending). */
  async function call(target: TargetRow, params: Record<string, unknown>, pdu: Uint8Array, userId: string | null) {
    const timeout = Number(params.timeout_ms ?? 1000) + Number(params.enhanced_timeout_ms ?? 5000) + 5000;
    const cmd = await commands.issueRaw(
      target,
      {
        operation_name: Operations.udsRequest,
        operation_params: { ...params, pdu: bytesToHex(pdu) },
        timeout_ms: Math.min(timeout, 3_600_000),
        expires_in_ms: 60_000,
      },
      userId,
    );
    const done = await commands.waitFinal(cmd);
    if (done.state === 'failed' && done.message === 'uds.canfd-not-supported') throw new ApiError(400, 'uds.canfd-not-supported');
    if (done.state !== 'answered')
      throw new ApiError(504, 'uds.no-response', done.message ?? 'The ECU did not answer', {
        details: { correlation_id: done.correlation_id, state: done.state },
      });
    const res = (done.result ?? {}) as { pdu?: string; pending?: number };
    return { pdu: hexToBytes(res.pdu ?? ''), pending: res.pending ?? 0, correlationId: done.correlation_id };
  }

  return {
    async request(auth: Auth, thingsId: string, tr: UdsTransport, pduHex: string) {
      const { target, params } = await resolve(auth, thingsId, tr);
      const pdu = hexToBytes(pduHex);
      const r = await call(target, params, pdu, auth.userId);
      const d = r.pdu.length ? decodeResponse(r.pdu) : null;
      return {
        request: bytesToHex(pdu),
        response: bytesToHex(r.pdu),
        positive: d?.ok ?? false,
        nrc: d && !d.ok ? d.nrc : null,
        nrc_name: d && !d.ok ? d.name : null,
        pending: r.pending,
        correlation_id: r.correlationId,
      };
    },

    async readDtcs(auth: Auth, thingsId: string, tr: UdsTransport, statusMask: number) {
      const { target, ecu, params } = await resolve(auth, thingsId, tr);
      const r = await call(target, params, encodeRequest({ service: 'readDtc', statusMask }), auth.userId);
      const d = decodeResponse(r.pdu);
      if (!d.ok) throw ApiError.of('uds.negative-response', `The ECU refused: ${d.name}`, { details: { nrc: d.nrc, name: d.name } });
      const names = ecu?.dtc_file_id ? await ecus.faultCodes(auth, ecu.dtc_file_id) : [];
      const parsed = parseDtcs(r.pdu);
      return {
        availability_mask: parsed.availabilityMask,
        dtcs: parsed.dtcs.map((x) => ({
          code: dtcToString(x.code),
          hex: x.code.toString(16).toUpperCase().padStart(6, '0'),
          name: faultCodeName(names, x.code),
          status: x.status,
          status_names: dtcStatusNames(x.status),
        })),
      };
    },

    async clearDtcs(auth: Auth, thingsId: string, tr: UdsTransport, group: number) {
      const { target, params } = await resolve(auth, thingsId, tr);
      const r = await call(target, params, encodeRequest({ service: 'clearDtc', group }), auth.userId);
      const d = decodeResponse(r.pdu);
      if (!d.ok) throw ApiError.of('uds.negative-response', `The ECU refused: ${d.name}`, { details: { nrc: d.nrc, name: d.name } });
      return { cleared: true };
    },

    /** Starts the ECU upgrade in the background; the console polls the job. */
    async flash(auth: Auth, thingsId: string, tr: UdsTransport, address: number, firmwareFileId?: string) {
      const { target, ecu, params } = await resolve(auth, thingsId, tr);
      if (!ecu) throw badRequest('http.400', 'Choose the ECU to upgrade', 'transport.ecu_id');
      const fwId = firmwareFileId ?? ecu.firmware_file_id;
      if (!fwId) throw badRequest('ecu.no-firmware', undefined, 'firmware_file_id');
      if (!ecu.unlock_file_id) throw badRequest('ecu.no-unlock', undefined, 'transport.ecu_id');
      const image = await ecus.firmwareBytes(auth, fwId);
      const unlock = await ecus.unlockOf(auth, ecu.unlock_file_id);
      let job: JobRow;
      try {
        job = await repo.insertJob({
          tenantId: auth.tenantId,
          thingsId,
          ecuId: ecu.id,
          firmwareFileId: fwId,
          channel: tr.channel,
          createdBy: auth.userId,
          owner: deps.owner ?? null,
        });
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw conflict('uds.busy');
        throw e;
      }
      const flag = { cancelled: false };
      running.set(job.id, flag);
      const set = async (s: JobChange) => {
        const row = await repo.updateRunning(job.id, s);
        if (row) deps.events.emit('ecu-flash.job', { tenantId: row.tenant_id, thingsId: row.things_id, job: toJob(row) });
      };
      void (async () => {
        let lastCheck = 0;
        const r = await runFlash({ image, address, unlock }, async (pdu) => (await call(target, params, pdu, auth.userId)).pdu, {
          onStep: async (step, progress) => {
            await set({ step, progress });
            // Another server copy may have taken the cancel: look at the flag at most once a second.
            if (Date.now() - lastCheck > 1000) {
              lastCheck = Date.now();
              if (await repo.cancelRequested(job.id)) flag.cancelled = true;
            }
          },
          cancelled: () => flag.cancelled,
        });
        if (r.ok) await set({ state: 'done', progress: 100, step: 'reset' });
        else if (r.reason === 'cancelled') await set({ state: 'cancelled', step: r.step, reason: `cancelled at ${r.step}` });
        else await set({ state: 'failed', step: r.step, reason: `${r.step}: ${r.reason}` });
      })()
        .catch(async (e) => {
          deps.log.warn({ err: e, job: job.id }, 'ECU upgrade failed');
          await set({ state: 'failed', reason: (e as Error)?.message ?? String(e) }).catch(() => {});
        })
        .finally(() => running.delete(job.id));
      return toJob(job);
    },

    /**
     * Flash jobs of a stopped server copy end as failed with the reason, at the step they reached: the
     * flashing sequence lives in the copy that ran it and cannot be picked up mid-transfer (the ECU
     * is left in its programming session, to be flashed again).
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const rows = await repo.failOrphaned(pass.dead(), INTERRUPTED.message);
      for (const r of rows) deps.events.emit('ecu-flash.job', { tenantId: r.tenant_id, thingsId: r.things_id, job: toJob(r) });
      return rows.length;
    },

    async job(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const row = await repo.job(auth.tenantId, thingsId, id);
      if (!row) throw notFound('ECU upgrade not found');
      return toJob(row);
    },

    async cancel(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'write');
      const row = await repo.requestCancel(auth.tenantId, thingsId, id);
      if (!row) throw conflict('command.not-cancellable', 'The ECU upgrade is not running');
      const f = running.get(id);
      if (f) f.cancelled = true;
      return toJob(row);
    },
  };
}

export type UdsService = ReturnType<typeof udsService>;
