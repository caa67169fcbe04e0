import type { RoutineStep, RoutineStepInput } from '@loggerhead/contract/schemas/testmgmt.ts';
import { emptyFrameRow, type FrameRow, frameErrors, toCommandFrames } from '../../../lib/can-frames.ts';

export type StepType = RoutineStep['type'];
export const STEP_TYPES: StepType[] = ['send_can', 'command', 'config', 'wait', 'collect'];

/** A step as the editor holds it: lists and JSON as the user types them. */
export interface StepDraft {
  key: number;
  type: StepType;
  seconds: number | null;
  /** send_can: the frames as the command sender's table holds them. */
  frames: FrameRow[];
  operation: string;
  /** command: its parameters; config: the configuration (JSON). */
  json: string;
  channels: number[];
  /** CAN ids, hexadecimal. */
  ids: string[];
  signals: string[];
}

let nextKey = 1;
export function newStep(type: StepType): StepDraft {
  return {
    key: nextKey++,
    type,
    seconds: type === 'collect' || type === 'wait' ? 5 : null,
    frames: [emptyFrameRow(1)],
    operation: '',
    json: '{}',
    channels: [],
    ids: [],
    signals: [],
  };
}

export function fromStep(s: RoutineStep): StepDraft {
  const d = newStep(s.type);
  switch (s.type) {
    case 'send_can':
      return {
        ...d,
        frames: s.params.frames.map((f, i) => ({
          key: i + 1,
          channel: f.channel ?? 0,
          id: f.id.toString(16).toUpperCase(),
          ext: f.ext ?? false,
          fd: f.fd ?? false,
          brs: f.brs ?? false,
          data: f.data,
        })),
      };
    case 'command':
      return { ...d, operation: s.operation_name, json: JSON.stringify(s.operation_params ?? {}, null, 2) };
    case 'config':
      return { ...d, json: JSON.stringify(s.config, null, 2) };
    case 'wait':
      return { ...d, seconds: s.seconds };
    case 'collect':
      return {
        ...d,
        seconds: s.seconds,
        channels: s.channels,
        ids: s.ids.map((i) => `0x${i.toString(16).toUpperCase()}`),
        signals: s.signals,
      };
  }
}

/** Thrown for what the user typed wrong: `field` names the text key of the message. */
export class StepError extends Error {
  constructor(
    readonly index: number,
    readonly field: string,
  ) {
    super(field);
  }
}

function jsonObject(text: string, index: number): Record<string, unknown> {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {}
  throw new StepError(index, 'json');
}

/** A positive whole number of seconds (spec §5 "test execution time positive integer"). */
export function positiveSeconds(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1;
}

export function toStep(d: StepDraft, index: number): RoutineStepInput {
  switch (d.type) {
    case 'send_can':
      // The rules of the command sender's form: each frame as the server and the device check it.
      if (!d.frames.length || d.frames.some((f) => frameErrors(f).length > 0)) throw new StepError(index, 'frames');
      return { type: 'send_can', params: { frames: toCommandFrames(d.frames) } };
    case 'command':
      if (!d.operation.trim()) throw new StepError(index, 'operation');
      return { type: 'command', operation_name: d.operation.trim(), operation_params: jsonObject(d.json, index) };
    case 'config':
      return { type: 'config', config: jsonObject(d.json, index) as never };
    case 'wait':
      if (!positiveSeconds(d.seconds)) throw new StepError(index, 'seconds');
      return { type: 'wait', seconds: d.seconds };
    case 'collect': {
      if (!positiveSeconds(d.seconds)) throw new StepError(index, 'seconds');
      const ids = d.ids.map((s) => {
        const n = Number.parseInt(s.replace(/^0x/i, ''), 16);
        if (!/^(0x)?[0-9a-f]+$/i.test(s.trim()) || Number.isNaN(n) || n > 0x1fffffff) throw new StepError(index, 'ids');
        return n;
      });
      return { type: 'collect', seconds: d.seconds, channels: d.channels, ids, signals: d.signals };
    }
  }
}
