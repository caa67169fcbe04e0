/**
 * MF4 files are read by following links back and forth, so they are read from a file handle
 * (random access), never held whole: memory stays within the file's block sizes. A stream
 * (an upload) is first written to a temporary file.
 */
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanFrame } from '@loggerhead/can';
import type { LogReadOptions, LogReadResult } from '@loggerhead/can/logs/index.ts';
import { isMf4, Mf4FileReader, type RandomAccessSource } from '@loggerhead/can/logs/mf4/mf4-reader.ts';

export function fileSource(fh: FileHandle): RandomAccessSource {
  return async (offset, length) => {
    // A new buffer per read: the reader keeps some (a window being decoded) while it reads others.
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  };
}

/** The file starts with an MDF 4 identification. */
export async function isMf4File(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await fh.read(head, 0, 8, 0);
    return isMf4(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/**
 * Reads an MF4 file from disk. With `onFrames`, frames are handed over batch by batch (and not
 * kept: the result's `frames` is empty); without, the result holds them all.
 */
export async function readMf4File(
  path: string,
  opts: LogReadOptions = {},
  onFrames?: (batch: CanFrame[]) => Promise<void> | void,
): Promise<LogReadResult> {
  const fh = await open(path, 'r');
  try {
    const reader = new Mf4FileReader(fileSource(fh), opts);
    const frames: CanFrame[] = [];
    for await (const batch of reader) {
      if (onFrames) await onFrames(batch);
      else for (let i = 0; i < batch.length; i++) frames.push(batch[i]);
    }
    const r = reader.result();
    r.frames = frames;
    return r;
  } finally {
    await fh.close();
  }
}

/** Reads an MF4 file arriving as a stream (`head`, then `rest`) by way of a temporary file. */
export async function readMf4Stream(head: Uint8Array, rest: AsyncIterator<Uint8Array>, opts: LogReadOptions = {}): Promise<LogReadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'loggerhead-mf4-'));
  try {
    const path = join(dir, 'log.mf4');
    const fh = await open(path, 'w');
    try {
      await fh.write(head);
      for (let r = await rest.next(); !r.done; r = await rest.next()) await fh.write(r.value);
    } finally {
      await fh.close();
    }
    return await readMf4File(path, opts);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
