import { createHash } from 'node:crypto';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import type { DeviceAgent, OperationContext, OperationResult } from './commands.ts';

export interface SdFile {
  data: Uint8Array;
  /** File time, ms since the epoch. */
  time: number;
}

/** Device code for "no such file" (the cloud shows it as recall.001, file info empty). */
export const FILE_INFO_EMPTY = 1;

/**
 * The logger's SD card, in memory: `common_fn.recallFileList` lists it (time filter, paging),
 * `common_fn.recallFile` uploads one file to the URL the cloud gave, in parts, resuming at the
 * offset the server already has, `common_fn.recallFileDel` deletes one. Each request on the link
 * carries the device's proof of it (`X-Device-Proof`, made with the device key).
 */
export class VirtualSdCard {
  readonly files = new Map<string, SdFile>();
  /** Upload part size in bytes. */
  partSize = 64 * 1024;
  /** Parts uploaded, all files (tests check resumption). */
  partsSent = 0;

  /** `key`: the device's things_key, which proves the device to the upload link. */
  constructor(private readonly key = '') {}

  attach(agent: DeviceAgent) {
    agent.on('common_fn.recallFileList', (p) => this.list(p));
    agent.on('common_fn.recallFile', (p, ctx) => this.upload(p, ctx));
    agent.on('common_fn.recallFileDel', (p) => this.remove(p));
  }

  put(name: string, data: Uint8Array, time = Date.now()) {
    this.files.set(name, { data, time });
  }

  list(p: Record<string, unknown>): OperationResult {
    const f = (p.filter ?? {}) as { starttime?: number; endtime?: number };
    const size = Math.max(1, Number(p.page_size ?? 100));
    const page = Math.max(1, Number(p.current_page ?? 1));
    const all = [...this.files.entries()]
      .filter(([, v]) => (f.starttime === undefined || v.time >= f.starttime) && (f.endtime === undefined || v.time <= f.endtime))
      .sort((a, b) => a[1].time - b[1].time || a[0].localeCompare(b[0]))
      .map(([name, v]) => ({ name, size: v.data.length, time: v.time }));
    return { code: 0, payload: { total: all.length, files: all.slice((page - 1) * size, page * size) } };
  }

  remove(p: Record<string, unknown>): OperationResult {
    const name = (p.filter as { name?: string } | undefined)?.name;
    if (!name || !this.files.delete(name)) return { code: FILE_INFO_EMPTY, message: 'file info empty' };
    return { code: 0, payload: { deleted: name } };
  }

  async upload(p: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    const name = String(p.filename ?? '');
    const url = String(p.url ?? '');
    const file = this.files.get(name);
    if (!file) return { code: FILE_INFO_EMPTY, message: 'file info empty' };
    if (!/^https?:\/\//.test(url)) return { code: 2, message: 'no upload URL' };
    const total = file.data.length;
    const proof = { [LINK_PROOF_HEADER]: linkProof(this.key, url) };
    // Resume where the server is (a previous attempt may have sent some parts).
    const status = await fetch(url, { headers: proof });
    if (!status.ok) return { code: 3, message: `upload refused: HTTP ${status.status}` };
    let offset = Number(((await status.json()) as { received?: number }).received ?? 0);
    while (offset < total) {
      const part = file.data.subarray(offset, Math.min(total, offset + this.partSize));
      const res = await fetch(`${url}?offset=${offset}&total=${total}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', ...proof },
        body: part,
      });
      if (res.status === 409) {
        offset = Number(((await res.json()) as { details?: { received?: number } }).details?.received ?? 0);
        continue;
      }
      if (!res.ok) return { code: 3, message: `upload failed: HTTP ${res.status}` };
      this.partsSent++;
      offset += part.length;
      await ctx.progress({ progress: Math.floor((offset / total) * 100), received: offset, size: total });
    }
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    return { code: 0, payload: { name, size: total, sha256, time: file.time } };
  }
}
