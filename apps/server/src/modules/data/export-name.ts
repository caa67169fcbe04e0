/**
 * An export's file name says what it holds: the device's name and ID, then the time range in UTC,
 * e.g. `Truck 7_0123456789ABCDEF0123_20240105T080000Z-20240105T090000Z.asc`. Characters that file
 * systems refuse are replaced; names in any script are kept (the download sends them as UTF-8).
 */
const compact = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

export function exportFileName(
  device: { name: string; third_things_id: string } | null,
  thingsId: string,
  beginMs: number,
  endMs: number,
  ext: string,
): string {
  const clean = (s: string) =>
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
      .replace(/^[.\s]+|[.\s]+$/g, '')
      .slice(0, 60);
  const who = device ? [clean(device.name), clean(device.third_things_id)].filter(Boolean).join('_') : thingsId;
  return `${who || thingsId}_${compact(beginMs)}-${compact(endMs)}.${ext}`;
}

/** `Content-Disposition` for a download: an ASCII fallback name and the real one as UTF-8 (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
