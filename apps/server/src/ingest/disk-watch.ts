import fs from 'node:fs';

/** The error an uplink is refused with while the disk is low: not acknowledged, so delivered again. */
export class StorageLowError extends Error {
  readonly code = 'STORAGE_LOW';
  constructor(free: number, min: number) {
    super(`free space on DATA_DIR is ${Math.floor(free / 1048576)} MB, under DISK_FREE_MIN_MB (${Math.floor(min / 1048576)} MB)`);
  }
}

export const isStorageLow = (err: unknown) => (err as { code?: unknown } | null)?.code === 'STORAGE_LOW';

/**
 * The free-space watermark of `DATA_DIR` (docs/decisions/0202-faults-from-outside.md): under
 * `minBytes` free, uplinks are refused (not acknowledged, so the devices or the broker deliver them
 * again) before the disk fills and the embedded database's files with it. Ingest resumes once a
 * tenth more than the watermark is free again, so the state does not flap at the line.
 */
export class DiskWatch {
  private timer: NodeJS.Timeout | null = null;
  private freeBytes: number | null = null;
  private isLow = false;

  constructor(
    private readonly dir: string,
    readonly minBytes: number,
    private readonly opts: {
      everyMs?: number;
      log?: { warn: (o: object, m: string) => void; info: (o: object, m: string) => void };
    } = {},
  ) {}

  get low(): boolean {
    return this.isLow;
  }

  get free(): number | null {
    return this.freeBytes;
  }

  /** Reads the free space now (statfs: what an unprivileged writer may still use). */
  check(): boolean {
    let free: number;
    try {
      const s = fs.statfsSync(this.dir);
      free = s.bavail * s.bsize;
    } catch {
      return this.isLow; // the folder cannot be read: the last state stands
    }
    this.freeBytes = free;
    const wasLow = this.isLow;
    if (!wasLow && free < this.minBytes) this.isLow = true;
    else if (wasLow && free >= this.minBytes * 1.1) this.isLow = false;
    if (this.isLow !== wasLow) {
      const o = { freeMb: Math.floor(free / 1048576), minMb: Math.floor(this.minBytes / 1048576), dir: this.dir };
      if (this.isLow) this.opts.log?.warn(o, 'DATA_DIR almost full: uplinks refused until space is freed');
      else this.opts.log?.info(o, 'DATA_DIR has room again: uplinks accepted');
    }
    return this.isLow;
  }

  /** Refuses the uplink (throws `StorageLowError`) while the disk is low. */
  assertRoom(): void {
    if (this.isLow) throw new StorageLowError(this.freeBytes ?? 0, this.minBytes);
  }

  start(): void {
    this.check();
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.opts.everyMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
