import fs from 'node:fs';
import path from 'node:path';
import { type CanFrame, compileDbc, type DbcMessage, encodeMessage, makeFrame, parseDbc } from '@loggerhead/can';
import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import { haversine } from '../../rules/geo.ts';

/** The DBC the demo vehicles speak (a generic hybrid truck), shipped with the server. */
export const DEMO_DBC_FILE = path.resolve(import.meta.dirname, '../../../assets/demo/demo-vehicle.dbc');
export const DEMO_DBC_NAME = 'demo-vehicle';

export function demoDbcText(): string {
  return fs.readFileSync(DEMO_DBC_FILE, 'utf8');
}

/** Road classes of the loop: the speed a driver aims for (km/h). */
const CLASS_SPEED = { urban: 48, arterial: 68, expressway: 104 } as const;
type RoadClass = keyof typeof CLASS_SPEED;

/**
 * A loop through Pudong, Shanghai (about 31 km): Lujiazui, Century Avenue, Century Park, Longyang
 * Road, the Middle Ring expressway to Jinqiao, back along Yanggao Road and Pudong Avenue. Each point
 * starts a leg of the given class; a leg ending at an urban junction may stop at its lights.
 */
const ROUTE: { lat: number; lon: number; road: RoadClass }[] = [
  { lat: 31.2397, lon: 121.4998, road: 'urban' }, // Lujiazui
  { lat: 31.2338, lon: 121.5142, road: 'urban' },
  { lat: 31.2268, lon: 121.5315, road: 'arterial' }, // Century Avenue
  { lat: 31.2196, lon: 121.5446, road: 'urban' }, // Century Park
  { lat: 31.2101, lon: 121.5531, road: 'urban' },
  { lat: 31.2028, lon: 121.559, road: 'arterial' }, // Longyang Road
  { lat: 31.1932, lon: 121.5716, road: 'expressway' }, // Middle Ring
  { lat: 31.1888, lon: 121.5953, road: 'expressway' },
  { lat: 31.2061, lon: 121.6142, road: 'expressway' },
  { lat: 31.2316, lon: 121.6203, road: 'expressway' },
  { lat: 31.2547, lon: 121.6068, road: 'arterial' }, // Jinqiao
  { lat: 31.2672, lon: 121.5856, road: 'arterial' },
  { lat: 31.2611, lon: 121.5627, road: 'urban' }, // Yanggao Road
  { lat: 31.2502, lon: 121.5406, road: 'urban' }, // Pudong Avenue
  { lat: 31.2446, lon: 121.5183, road: 'urban' },
];

interface Leg {
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  road: RoadClass;
  start: number;
  length: number;
  heading: number;
}

const LEGS: Leg[] = (() => {
  const out: Leg[] = [];
  let start = 0;
  for (let i = 0; i < ROUTE.length; i++) {
    const a = ROUTE[i];
    const b = ROUTE[(i + 1) % ROUTE.length];
    const length = haversine(a.lat, a.lon, b.lat, b.lon);
    const y = Math.sin(((b.lon - a.lon) * Math.PI) / 180) * Math.cos((b.lat * Math.PI) / 180);
    const x =
      Math.cos((a.lat * Math.PI) / 180) * Math.sin((b.lat * Math.PI) / 180) -
      Math.sin((a.lat * Math.PI) / 180) * Math.cos((b.lat * Math.PI) / 180) * Math.cos(((b.lon - a.lon) * Math.PI) / 180);
    const heading = ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
    out.push({ from: a, to: b, road: a.road, start, length, heading });
    start += length;
  }
  return out;
})();

/** Length of the loop in metres. */
export const LOOP_M = LEGS[LEGS.length - 1].start + LEGS[LEGS.length - 1].length;

/** The point of the loop closest to Century Park: the demo fence is drawn around it. */
export const FENCE_CENTER = { lat: 31.2196, lon: 121.5446 };

function legAt(d: number): Leg {
  const x = ((d % LOOP_M) + LOOP_M) % LOOP_M;
  for (let i = LEGS.length - 1; i >= 0; i--) if (LEGS[i].start <= x) return LEGS[i];
  return LEGS[0];
}

/** Small deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the vehicle's ECUs report at one instant. */
export interface DriveState {
  speed: number; // km/h
  accel: number; // m/s²
  rpm: number;
  throttle: number; // %
  load: number; // %
  fuelRate: number; // L/h
  gear: number; // 0 P … 3-8 D1-D6
  brake: number;
  steering: number; // degrees
  soc: number; // %
  voltage: number; // V
  current: number; // A, + discharging
  batteryTemp: number;
  coolant: number;
  oilPressure: number; // kPa
  transOil: number;
  ambient: number;
  fuelLevel: number; // %
  lat: number;
  lon: number;
  heading: number;
  odometer: number; // m
}

/**
 * A vehicle driving the loop, stepped in tenths of a second: it holds the road class's speed with
 * some variation, slows for the legs' ends, stops at some urban lights, and its engine, gearbox,
 * hybrid battery and temperatures follow. Deterministic for a given seed and start distance.
 */
export class DriveSim {
  private readonly rand: () => number;
  private v = 0; // m/s
  private d: number;
  private stopLeft = 0;
  private lastLeg: Leg;
  private wobble = 0;
  private steer = 0;
  readonly s: DriveState;

  constructor(
    seed: number,
    startDistance = 0,
    private readonly pace = 1,
  ) {
    this.rand = rng(seed);
    this.d = startDistance;
    this.lastLeg = legAt(this.d);
    this.s = {
      speed: 0,
      accel: 0,
      rpm: 0,
      throttle: 0,
      load: 0,
      fuelRate: 0,
      gear: 0,
      brake: 0,
      steering: 0,
      soc: 62 + this.rand() * 10,
      voltage: 0,
      current: 0,
      batteryTemp: 24,
      coolant: 22,
      oilPressure: 0,
      transOil: 22,
      ambient: 17 + this.rand() * 4,
      fuelLevel: 55 + this.rand() * 30,
      lat: 0,
      lon: 0,
      heading: 0,
      odometer: 120_000_000 + Math.floor(this.rand() * 50_000_000),
    };
    this.place();
  }

  /** Engine off: the vehicle stands, temperatures drift towards the air's. */
  park(seconds: number) {
    const s = this.s;
    this.v = 0;
    const k = 1 - Math.exp(-seconds / 1800);
    s.coolant += (s.ambient - s.coolant) * k;
    s.transOil += (s.ambient - s.transOil) * k;
    s.batteryTemp += (s.ambient + 3 - s.batteryTemp) * k;
  }

  step(dt = 0.1): DriveState {
    const s = this.s;
    const leg = legAt(this.d);
    if (leg !== this.lastLeg) {
      // An urban junction: a red light now and then.
      if (this.lastLeg.road === 'urban' && this.rand() < 0.45) this.stopLeft = 15 + this.rand() * 40;
      this.lastLeg = leg;
    }
    this.wobble += (this.rand() - 0.5) * 0.08;
    this.wobble *= 0.995;
    const toEnd = leg.start + leg.length - (((this.d % LOOP_M) + LOOP_M) % LOOP_M);
    let target = (CLASS_SPEED[leg.road] * this.pace * (1 + this.wobble * 0.05)) / 3.6;
    // Slow down before the end of the leg: for the next road's speed and for a sharp corner.
    const next = LEGS[(LEGS.indexOf(leg) + 1) % LEGS.length];
    const turn = Math.abs(((next.heading - leg.heading + 540) % 360) - 180);
    // The expressway's bends are sweeping curves, not junctions.
    const sharp = leg.road === 'expressway' && next.road === 'expressway' ? 0 : turn;
    const endKmh = Math.min(CLASS_SPEED[next.road] * this.pace, sharp > 60 ? 25 : sharp > 30 ? 45 : Number.POSITIVE_INFINITY);
    target = Math.min(target, Math.sqrt((endKmh / 3.6) ** 2 + 2 * 1.2 * Math.max(0, toEnd)));
    if (this.stopLeft > 0) {
      target = 0;
      if (this.v < 0.3) this.stopLeft -= dt;
    }
    const accel = Math.max(-3, Math.min(1.6, (target - this.v) * 0.6));
    this.v = Math.max(0, this.v + accel * dt);
    this.d += this.v * dt;
    s.odometer += this.v * dt;
    s.speed = this.v * 3.6;
    s.accel = this.v === 0 ? 0 : accel;
    s.brake = accel < -0.4 ? 1 : 0;
    // Gears of a six-speed automatic; P only when parked.
    const limits = [0, 12, 24, 38, 55, 75];
    let g = 1;
    for (let i = 0; i < limits.length; i++) if (s.speed > limits[i]) g = i + 1;
    s.gear = s.speed < 0.5 && this.stopLeft <= 0 && target === 0 ? 2 : g + 2;
    // Engine revolutions per km/h in each gear: about 1400 rpm at 80 km/h in sixth.
    const ratios = [0, 110, 62, 42, 30, 22, 17.5];
    s.rpm = Math.max(650 + this.rand() * 20, Math.min(2600, s.speed * ratios[g] + (this.rand() - 0.5) * 15));
    s.throttle = Math.max(0, Math.min(100, (accel > 0 ? accel * 35 : 0) + s.speed * 0.18 + (this.rand() - 0.5) * 2));
    s.load = Math.max(8, Math.min(100, s.throttle * 0.85 + s.speed * 0.12));
    s.fuelRate = 1.2 + s.load * 0.32;
    s.fuelLevel = Math.max(5, s.fuelLevel - (s.fuelRate / 3600) * dt * 0.4);
    // Hybrid battery: assists when pulling away, recuperates when braking.
    s.current = accel > 0.2 ? 40 + accel * 90 : accel < -0.3 ? accel * 70 : 6 + (this.rand() - 0.5) * 4;
    // Charge-sustaining: the engine tops the battery up around 60 %.
    if (this.v > 0) s.current += (s.soc - 60) * 4;
    s.soc = Math.max(20, Math.min(95, s.soc - (s.current * dt) / 3600 / 0.4));
    s.voltage = 330 + s.soc * 0.62 - s.current * 0.045;
    s.batteryTemp += ((24 + Math.abs(s.current) * 0.08 - s.batteryTemp) * dt) / 600;
    s.coolant += ((88 - s.coolant) * dt) / 240;
    s.transOil += ((78 - s.transOil) * dt) / 420;
    s.oilPressure = 120 + s.rpm * 0.16;
    // Steering: a turn at each corner, small corrections between.
    const wheel = toEnd < 40 && this.v > 0.5 ? Math.min(turn, 90) * 0.6 * Math.sin((toEnd / 40) * Math.PI) : 0;
    this.steer += (wheel + (this.rand() - 0.5) * 6 - this.steer) * 0.2;
    s.steering = this.steer;
    this.place();
    return s;
  }

  private place() {
    const leg = legAt(this.d);
    const x = ((this.d % LOOP_M) + LOOP_M) % LOOP_M;
    const f = leg.length ? (x - leg.start) / leg.length : 0;
    this.s.lat = leg.from.lat + (leg.to.lat - leg.from.lat) * f;
    this.s.lon = leg.from.lon + (leg.to.lon - leg.from.lon) * f;
    this.s.heading = leg.heading;
  }
}

/** How often each message goes out, in tenths of a second (1 = 10 Hz). */
export interface Rates {
  ENGINE_DATA: number;
  VEHICLE_DYNAMICS: number;
  TRANSMISSION: number;
  BATTERY_STATUS: number;
  ENV_STATUS: number;
  /** Frames not in the DBC: a body controller heartbeat (0x5A0) and a J1939-style 0x18FEF100. */
  OTHER: number;
}

/** Stored history: the fast messages at 10 Hz, the slow ones at 2 Hz. */
export const HISTORY_RATES: Rates = { ENGINE_DATA: 1, VEHICLE_DYNAMICS: 1, TRANSMISSION: 5, BATTERY_STATUS: 5, ENV_STATUS: 5, OTHER: 10 };
/** The live logger: about 15 frames a second. */
export const LIVE_RATES: Rates = { ENGINE_DATA: 2, VEHICLE_DYNAMICS: 2, TRANSMISSION: 10, BATTERY_STATUS: 10, ENV_STATUS: 5, OTHER: 10 };

/** Turns drive states into the DBC's frames (channel 0). */
export class FrameMaker {
  private readonly messages: Map<string, DbcMessage>;
  private tick = 0;
  private page = 0;
  private counter = 0;

  constructor(private readonly rates: Rates) {
    const parsed = parseDbc(demoDbcText());
    if (!parsed.ok) throw new Error(`demo DBC: ${parsed.error.reason}`);
    compileDbc(parsed.dbc); // fails early if the shipped file ever stops compiling
    this.messages = new Map(parsed.dbc.messages.map((m) => [m.name, m]));
  }

  private msg(name: string): DbcMessage {
    return this.messages.get(name) as DbcMessage;
  }

  /** The frames due at this tick (`ts` in µs), appended to `out`. */
  frames(s: DriveState, ts: number, out: CanFrame[]): void {
    const t = this.tick++;
    const r = this.rates;
    const due = (every: number) => t % every === 0;
    const push = (id: number, data: Uint8Array, ext = false) => out.push(makeFrame({ ts, channel: 0, id, ext, data }));
    if (due(r.ENGINE_DATA))
      push(
        200,
        encodeMessage(this.msg('ENGINE_DATA'), {
          EngineSpeed: s.rpm,
          ThrottlePosition: s.throttle,
          EngineLoad: s.load,
          FuelRate: s.fuelRate,
        }),
      );
    if (due(r.VEHICLE_DYNAMICS))
      push(
        496,
        encodeMessage(this.msg('VEHICLE_DYNAMICS'), {
          VehicleSpeed: s.speed,
          LongitudinalAccel: s.accel,
          SteeringAngle: s.steering,
          BrakePressed: s.brake,
        }),
      );
    if (due(r.TRANSMISSION)) push(672, encodeMessage(this.msg('TRANSMISSION'), { GearPosition: s.gear, TransOilTemp: s.transOil }));
    if (due(r.BATTERY_STATUS))
      push(
        928,
        encodeMessage(this.msg('BATTERY_STATUS'), {
          BatterySOC: s.soc,
          BatteryVoltage: s.voltage,
          BatteryCurrent: s.current,
          BatteryTemp: s.batteryTemp,
        }),
      );
    if (due(r.ENV_STATUS)) {
      const page = this.page++ % 2;
      const values: Record<string, number> =
        page === 0
          ? { PageSelector: 0, CoolantTemp: s.coolant, OilPressure: s.oilPressure }
          : { PageSelector: 1, AmbientTemp: s.ambient, FuelLevel: s.fuelLevel };
      push(1248, encodeMessage(this.msg('ENV_STATUS'), values));
    }
    if (due(r.OTHER)) {
      const c = this.counter++ & 0xff;
      push(0x5a0, Uint8Array.of(c, 0x01, s.brake ? 0x10 : 0x00, 0, 0, 0, 0, c ^ 0x5a));
      const odo = Math.floor(s.odometer / 125) >>> 0;
      push(0x18fef100, Uint8Array.of(0xff, odo & 0xff, (odo >> 8) & 0xff, (odo >> 16) & 0xff, (odo >>> 24) & 0xff, 0xff, 0xff, 0xff), true);
    }
  }
}

/** A GPS fix of the state at `ms`. */
export function fixOf(s: DriveState, ms: number): GpsFix {
  return {
    ts: ms,
    lat: Math.round(s.lat * 1e6) / 1e6,
    lon: Math.round(s.lon * 1e6) / 1e6,
    alt: 6,
    speed: Math.round(s.speed * 10) / 10,
    heading: Math.round(s.heading),
    sats: 11,
  };
}
