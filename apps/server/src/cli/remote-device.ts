import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CanFrame } from '@loggerhead/can';
import { parseDtcCode } from '@loggerhead/can/uds/uds.ts';
import { SimulatedEcu } from '@loggerhead/simulator/ecu-sim.ts';
import { replay } from '@loggerhead/simulator/logger-device.ts';
import type { ModelBlockSpec } from '@loggerhead/simulator/model-device.ts';
import { childIds, RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { describeSkipped, readLogFile } from '../lib/log-file.ts';

const HELP = `Usage:
  loggerhead remote-device --broker URL --device ID --key KEY [--sd DIR] [--ecus FILE] [--replay LOG] [--no-canfd] [--mqtt5]
                           [--telemetry BLOCKS.json [--interval MS]] [--children N|ID,ID,…]

Connects as a logger that answers remote operations until Ctrl-C: CAN sending, configuration,
file recall (the files of --sd DIR are its SD card), firmware upgrades, and UDS to the simulated
ECUs described in --ecus FILE. With --replay LOG (candump -L, Vector ASC, BLF or MF4) it also
records that log's frames on its bus the whole time: at the log's pace, starting now, again from the
start one second after the last frame, sent every 200 ms as a logger does. --ecus FILE is a JSON
list of
  {"name": "BMS", "request_id": "7E0", "response_id": "7E8", "functional_id": "7DF", "channel": 0,
   "unlock": {"format": "loggerhead-unlock/1", "level": 1, "steps": [...]},
   "dtcs": [{"code": "P0A80-13", "status": 9}], "dids": {"F190": "hex bytes"}}

With --telemetry BLOCKS.json (the function blocks of its info model, as GET
/v1/mapping-mgmt/tenants/{tenant}/info-models/{id}/function-blocks answers) it is a plain device of
that model: every --interval ms (default 1000) it reports its status properties as JSON telemetry
(read-only numbers drifting), applies the desired values it is sent and reports them back, answers
the model's operations, and holds the edge-computing rules it is issued (edge.set_rule: filter or
aggregate a property before upload; docs/device-protocol.md).

With --children it is a gateway: N children (device IDs: its own ID with the last four digits
0001…N, printed at start) or the children whose IDs are listed, each a device of the --telemetry
model whose telemetry, twin acknowledgements and online state it forwards on its own connection
(up/sub/{child}/…; docs/device-protocol.md). Add the children on the platform first, with this
gateway as their parent.`;

const hexId = (v: unknown) => (typeof v === 'number' ? v : Number.parseInt(String(v).replace(/^0x/i, ''), 16));

export function ecusFromJson(list: unknown): SimulatedEcu[] {
  if (!Array.isArray(list)) throw new Error('the ECU file must hold a JSON list');
  return list.map((e, i) => {
    const dtcs = ((e.dtcs ?? []) as { code: string; status?: number }[]).map((d) => {
      const code = parseDtcCode(d.code);
      if (code === null) throw new Error(`ECU ${i + 1}: "${d.code}" is not a fault code`);
      return { code, status: d.status ?? 0x09 };
    });
    const dids = Object.fromEntries(
      Object.entries((e.dids ?? {}) as Record<string, string>).map(([k, v]) => [
        hexId(k),
        new Uint8Array(Buffer.from(v.replace(/\s/g, ''), 'hex')),
      ]),
    );
    return new SimulatedEcu({
      name: String(e.name ?? `ECU${i + 1}`),
      requestId: hexId(e.request_id),
      responseId: hexId(e.response_id),
      functionalId: e.functional_id === undefined ? undefined : hexId(e.functional_id),
      channel: e.channel ?? 0,
      unlock: e.unlock,
      dtcs,
      dids,
    });
  });
}

export async function remoteDevice(args: string[]): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args,
      options: {
        broker: { type: 'string' },
        device: { type: 'string' },
        key: { type: 'string' },
        sd: { type: 'string' },
        ecus: { type: 'string' },
        replay: { type: 'string' },
        'no-canfd': { type: 'boolean' },
        mqtt5: { type: 'boolean' },
        telemetry: { type: 'string' },
        interval: { type: 'string' },
        children: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`loggerhead remote-device: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  if (!v.device || !v.key) {
    console.error(`loggerhead remote-device: --device and --key are required\n\n${HELP}`);
    return 2;
  }
  let model: ModelBlockSpec[] | undefined;
  if (v.telemetry) {
    try {
      model = JSON.parse(fs.readFileSync(v.telemetry as string, 'utf8'));
      if (!Array.isArray(model) || !model.every((b) => typeof b?.name === 'string' && typeof b?.json_schema === 'object'))
        throw new Error('expected a JSON list of function blocks ({name, json_schema})');
    } catch (e) {
      console.error(`loggerhead remote-device: cannot read ${v.telemetry}: ${(e as Error).message}`);
      return 1;
    }
  }
  let children: string[] = [];
  if (v.children !== undefined) {
    const text = String(v.children).trim();
    children = /^\d+$/.test(text) ? childIds(v.device as string, Number(text)) : text.split(',').map((c) => c.trim().toUpperCase());
    if (!children.length || children.length > 1000 || !children.every((c) => /^[0-9A-F]{20}$/.test(c))) {
      console.error('loggerhead remote-device: --children is a count (1-1000) or a list of 20-hex device IDs');
      return 2;
    }
    if (!model) {
      console.error('loggerhead remote-device: --children needs --telemetry (the model its children report)');
      return 2;
    }
  }
  const interval = Number(v.interval ?? 1000);
  if (!Number.isFinite(interval) || interval < 100) {
    console.error('loggerhead remote-device: --interval is at least 100 ms');
    return 2;
  }
  const sim = new RemoteDevice({
    model,
    broker: (v.broker as string | undefined) ?? 'mqtt://localhost:1883',
    deviceId: v.device as string,
    key: v.key as string,
    protocolVersion: v.mqtt5 ? 5 : 4,
    canFd: !v['no-canfd'],
    children,
  });
  let frames: CanFrame[] = [];
  if (v.replay) {
    try {
      // A missing or unreadable file is told here: the stream would report it as an unhandled error.
      fs.accessSync(v.replay as string, fs.constants.R_OK);
      const log = await readLogFile(v.replay as string);
      if (log.error) throw new Error(log.error);
      if (log.skipped) console.error(`loggerhead remote-device: ${v.replay}: ${describeSkipped(log)}`);
      frames = [...log.frames];
    } catch (e) {
      console.error(`loggerhead remote-device: cannot replay ${v.replay}: ${(e as Error).message}`);
      return 1;
    }
    if (!frames.length) {
      console.error(`loggerhead remote-device: ${v.replay} holds no frames to replay`);
      return 1;
    }
  }
  try {
    if (v.sd) {
      for (const name of fs.readdirSync(v.sd as string)) {
        const p = path.join(v.sd as string, name);
        const st = fs.statSync(p);
        if (st.isFile()) sim.sd.put(name, fs.readFileSync(p), Math.floor(st.mtimeMs));
      }
    }
    if (v.ecus) sim.uds.ecus.push(...ecusFromJson(JSON.parse(fs.readFileSync(v.ecus as string, 'utf8'))));
    await sim.connect();
  } catch (e) {
    console.error(`loggerhead remote-device: ${(e as Error).message}`);
    await sim.close().catch(() => {});
    return 1;
  }
  sim.start(interval);
  const stop = new AbortController();
  const replaying = frames.length
    ? replay(sim.device, frames, { realtime: true, loop: true, signal: stop.signal }).catch((e) => {
        console.error(`loggerhead remote-device: the replay stopped: ${(e as Error).message}`);
      })
    : Promise.resolve();
  const modelled = sim.model
    ? `, reporting ${sim.model.blocks.length} function block(s) every ${interval} ms`
    : children.length
      ? `, gateway of ${children.length} child(ren) reporting every ${interval} ms: ${children.join(', ')}`
      : '';
  const replayed = frames.length ? `, replaying ${frames.length} frame(s) of ${path.basename(v.replay as string)}` : '';
  console.log(
    `connected as ${v.device}: ${sim.sd.files.size} file(s) on the SD card, ${sim.uds.ecus.length} ECU(s)${replayed}${modelled}; Ctrl-C to stop`,
  );
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  stop.abort();
  await replaying;
  await sim.close();
  return 0;
}
