import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { type FileStore, type FileWriter, joinKey, localWriter, stagingDir } from './file-store.ts';

export interface S3Settings {
  /** Endpoint of an S3-compatible server (MinIO, Ceph, s3rver…); unset = AWS. */
  url: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Path-style addresses (`host/bucket/key`), which most S3-compatible servers need. */
  pathStyle: boolean;
  /** Key prefix inside the bucket (several deployments in one bucket). */
  prefix: string;
}

/** Part keys of a file received in parts: `<key>.parts/<offset, 16 digits>`; sorted by name = by offset. */
const partKey = (key: string, offset: number) => `${key}.parts/${String(offset).padStart(16, '0')}`;

/**
 * An S3 bucket as the file store, shared by every server copy. Files written in pieces are staged
 * in a local temporary file and put when closed; files received in parts keep each part as its own
 * object, so parts may arrive at any copy.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    private readonly owned: boolean,
  ) {}

  static connect(s: S3Settings): S3FileStore {
    const client = new S3Client({
      region: s.region,
      endpoint: s.url ?? undefined,
      forcePathStyle: s.pathStyle,
      credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: many S3-compatible servers do not take the
      // aws-chunked trailers newer SDKs add to every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
    return new S3FileStore(client, s.bucket, s.prefix.replace(/^\/+|\/+$/g, ''), true);
  }

  under(prefix: string): FileStore {
    return new S3FileStore(this.client, this.bucket, joinKey(this.prefix, prefix), false);
  }

  private key(key: string): string {
    return joinKey(this.prefix, key);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: bytes, ContentLength: bytes.length }));
  }

  async get(key: string): Promise<Buffer | null> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) })).catch(missingAsNull);
    if (!res?.Body) return null;
    return Buffer.from(await res.Body.transformToByteArray());
  }

  async open(key: string) {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) })).catch(missingAsNull);
    if (!res?.Body) return null;
    return { stream: res.Body as Readable, size: Number(res.ContentLength ?? 0) };
  }

  async size(key: string): Promise<number | null> {
    const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) })).catch(missingAsNull);
    return res ? Number(res.ContentLength ?? 0) : null;
  }

  private async objects(prefix: string): Promise<{ key: string; size: number }[]> {
    const out: { key: string; size: number }[] = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.key(prefix)}/`, ContinuationToken: token }),
      );
      for (const o of res.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: Number(o.Size ?? 0) });
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async list(prefix: string): Promise<string[]> {
    const base = this.prefix ? `${this.prefix}/` : '';
    return (await this.objects(prefix)).map((o) => o.key.slice(base.length)).filter((k) => !/\.parts\/\d{16}$/.test(k));
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async create(key: string): Promise<FileWriter> {
    const staged = path.join(stagingDir(), randomUUID());
    return localWriter(staged, async () => {
      try {
        const { size } = await fs.promises.stat(staged);
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: fs.createReadStream(staged), ContentLength: size }),
        );
      } finally {
        await fs.promises.rm(staged, { force: true });
      }
    });
  }

  async appendPart(key: string, offset: number, bytes: Uint8Array): Promise<void> {
    await this.put(partKey(key, offset), bytes);
  }

  async partsSize(key: string): Promise<number> {
    return (await this.objects(`${key}.parts`)).reduce((n, o) => n + o.size, 0);
  }

  async readParts(key: string): Promise<Buffer | null> {
    const parts = (await this.objects(`${key}.parts`)).sort((a, b) => (a.key < b.key ? -1 : 1));
    if (!parts.length) return null;
    const base = this.prefix ? `${this.prefix}/` : '';
    const pieces: Buffer[] = [];
    for (const p of parts) {
      const b = await this.get(p.key.slice(base.length));
      if (b) pieces.push(b);
    }
    return Buffer.concat(pieces);
  }

  async removeParts(key: string): Promise<void> {
    const parts = await this.objects(`${key}.parts`);
    for (let i = 0; i < parts.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: parts.slice(i, i + 1000).map((p) => ({ Key: p.key })), Quiet: true },
        }),
      );
    }
  }

  /** Checks at start that the bucket answers (a wrong address or credentials stop the start with the reason). */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const why = err.$metadata?.httpStatusCode === 404 ? 'does not exist' : `cannot be read (${err.name ?? 'error'}: ${err.message ?? e})`;
      throw new Error(`S3 file store: bucket "${this.bucket}" ${why}; check S3_URL, S3_BUCKET and the credentials`);
    }
  }

  close(): void {
    if (this.owned) this.client.destroy();
  }
}

function missingAsNull(e: { name?: string; $metadata?: { httpStatusCode?: number } }): null {
  if (e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404) return null;
  throw e;
}
