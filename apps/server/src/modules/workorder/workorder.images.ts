import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WORK_ORDER_IMAGE_MAX_BYTES, type WorkOrderImage } from '@loggerhead/contract';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import type { WorkOrderRepository } from './workorder.repository.ts';

/**
 * The type comes from the bytes, never from the name or the declared type, so
 * nothing but a real raster image is stored or served back (no SVG, no HTML).
 */
export function sniffImage(b: Uint8Array): { mime: string; ext: string } | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mime: 'image/png', ext: 'png' };
  if (at(0, 0xff, 0xd8, 0xff)) return { mime: 'image/jpeg', ext: 'jpg' };
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return { mime: 'image/gif', ext: 'gif' };
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return { mime: 'image/webp', ext: 'webp' };
  return null;
}

/** Work-order images in the file store under `workorders/<tenant>/`. */
export function workOrderImages(files: FileStore, repo: WorkOrderRepository) {
  const root = files.under('workorders');

  return {
    async save(auth: Auth, tenantId: string, file: { name: string; bytes: Buffer }): Promise<WorkOrderImage> {
      if (auth.tenantId !== tenantId) throw forbidden();
      if (file.bytes.length > WORK_ORDER_IMAGE_MAX_BYTES) {
        throw new ApiError(413, 'workorder.image-too-large');
      }
      const kind = sniffImage(file.bytes);
      if (!kind) throw new ApiError(415, 'workorder.image-invalid');
      const id = randomUUID();
      const rel = `${tenantId}/${id}.${kind.ext}`;
      await root.put(rel, file.bytes);
      const name = path.basename(file.name || `image.${kind.ext}`).slice(0, 128);
      await repo.insertImage({ id, tenantId, uploaderId: auth.userId, name, mime: kind.mime, size: file.bytes.length, path: rel });
      return { id, name, size: file.bytes.length, mime: kind.mime };
    },

    /**
     * Reads an image: the tenant side sees its tenant's images (a sub-user only
     * its own uploads or those of orders it may see); `tenantId` null is the system side.
     */
    async read(tenantId: string | null, id: string, canSee: (workOrderId: string | null, uploaderId: string | null) => Promise<boolean>) {
      const row = await repo.image(tenantId, id);
      if (!row || !(await canSee(row.work_order_id, row.uploader_id))) throw notFound('Image not found');
      const bytes = await root.get(row.path);
      if (!bytes) throw notFound('Image not found');
      return { mime: row.mime, name: row.name, bytes };
    },
  };
}
export type WorkOrderImages = ReturnType<typeof workOrderImages>;
