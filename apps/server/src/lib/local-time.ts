/**
 * Times written for people (alert e-mail, SMS and voice texts): wall-clock time in the
 * deployment's zone (`TIME_ZONE`), with its UTC offset so that the text is never ambiguous,
 * e.g. `2026-01-05 16:00:00.000 (UTC+08:00)`.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone name this runtime knows (e.g. Asia/Shanghai, UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function formatLocalTime(ms: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const p of formatFor(timeZone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  // "GMT+08:00"; the zero offset comes as plain "GMT".
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}.${parts.fractionalSecond} (UTC${offset})`;
}
