/**
 * Wall-clock dates of the Vector formats (ASC `date` lines, BLF SYSTEMTIME). Both hold local
 * time without a zone and only millisecond precision; we map them to epoch µs through an
 * explicit offset (default 0 = treat as UTC) so that reading a file never depends on the
 * machine's time zone.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  // German CANoe installations write these.
  mär: 3,
  mrz: 3,
  mai: 5,
  okt: 10,
  dez: 12,
};
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Microseconds within the second. */
  micros: number;
}

export function wallClockToMicros(w: WallClock, utcOffsetMinutes = 0): number {
  const ms = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return (ms - utcOffsetMinutes * 60_000) * 1000 + w.micros;
}

export function microsToWallClock(us: number, utcOffsetMinutes = 0): WallClock & { weekday: number } {
  const ms = Math.floor(us / 1000) + utcOffsetMinutes * 60_000;
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micros: d.getUTCMilliseconds() * 1000,
    weekday: d.getUTCDay(),
  };
}

/**
 * Parses the date of an ASC `date` / `Begin Triggerblock` line, e.g.
 * `Wed Jul 8 06:17:32.249 pm 2015` or `Do Okt 20 14:03:11.015 2022`. Returns µs or NaN.
 */
export function parseAscDate(text: string, utcOffsetMinutes = 0): number {
  const tokens = text.trim().split(/\s+/);
  let i = tokens.findIndex((t) => MONTHS[t.toLowerCase().replace(/\.$/, '')] !== undefined);
  if (i < 0) return Number.NaN;
  const month = MONTHS[tokens[i].toLowerCase().replace(/\.$/, '')];
  const day = Number(tokens[++i]);
  const time = /^(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?$/.exec(tokens[++i] ?? '');
  if (!time || !Number.isInteger(day)) return Number.NaN;
  let hour = Number(time[1]);
  let next = tokens[++i] ?? '';
  const meridiem = next.toLowerCase();
  if (meridiem === 'am' || meridiem === 'pm') {
    if (hour === 12) hour = 0;
    if (meridiem === 'pm') hour += 12;
    next = tokens[++i] ?? '';
  }
  const year = Number(next);
  const frac = (time[4] ?? '').slice(0, 6).padEnd(6, '0');
  if (!Number.isInteger(year) || hour > 23 || month < 1) return Number.NaN;
  return wallClockToMicros(
    { year, month, day, hour, minute: Number(time[2]), second: Number(time[3]), micros: Number(frac) },
    utcOffsetMinutes,
  );
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `Wed Jul 08 06:17:32.249 pm 2015`, the form CANoe writes (12-hour clock, milliseconds). */
export function formatAscDate(us: number, utcOffsetMinutes = 0): string {
  const w = microsToWallClock(us, utcOffsetMinutes);
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  const ms = String(Math.floor(w.micros / 1000)).padStart(3, '0');
  return `${DAY_NAMES[w.weekday]} ${MONTH_NAMES[w.month - 1]} ${pad2(w.day)} ${pad2(h12)}:${pad2(w.minute)}:${pad2(w.second)}.${ms} ${w.hour < 12 ? 'am' : 'pm'} ${w.year}`;
}
