import { type Notice, type NoticeCreate, type NoticeUpdate, parseTimeInput, type TimeInput } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { type NoticeInsert, type NoticeRepository, type NoticeRow, noticeRepository } from './notice.repository.ts';

function toNotice(r: NoticeRow): Notice {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    content: r.content,
    platform: r.platform,
    version: r.version,
    startTime: r.startTime?.toISOString() ?? null,
    endTime: r.endTime?.toISOString() ?? null,
    isShow: r.isShow,
    changes: r.changes,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const flag = (v: boolean | 0 | 1) => v === true || v === 1;

function time(v: TimeInput | null, field: string): Date | null {
  if (v === null) return null;
  const d = parseTimeInput(v);
  if (!d) throw badRequest('http.400', `${field}: not a valid time`, field);
  return d;
}

/** The whole notice must make sense, whichever fields the request changed. */
function check(v: Pick<NoticeInsert, 'kind' | 'version' | 'startTime' | 'endTime'>) {
  if (v.startTime && v.endTime && v.endTime <= v.startTime) {
    throw new ApiError(400, 'notice.bad-range', undefined, { field: 'endTime' });
  }
  if (v.kind === 'upgrade' && (!v.version || !v.startTime || !v.endTime)) {
    throw new ApiError(400, 'notice.upgrade-needs-window', undefined, { field: 'version' });
  }
}

export function noticeService(raw: RawSql, repo: NoticeRepository = noticeRepository(raw)) {
  async function must(id: string): Promise<NoticeRow> {
    const row = await repo.get(id);
    if (!row) throw notFound('Notice not found');
    return row;
  }

  return {
    async create(auth: Auth, b: NoticeCreate): Promise<Notice> {
      const v: NoticeInsert = {
        kind: b.kind,
        title: b.title,
        content: b.content,
        platform: b.platform,
        version: b.version,
        startTime: time(b.startTime, 'startTime'),
        endTime: time(b.endTime, 'endTime'),
        isShow: flag(b.isShow),
        changes: b.changes,
        createdBy: auth.userId,
      };
      check(v);
      return toNotice(await repo.insert(v));
    },

    async get(_auth: Auth, id: string): Promise<Notice> {
      return toNotice(await must(id));
    },

    async list(_auth: Auth, q: { current_page: number; page_size: number; kind?: string; platform?: number }) {
      const { rows, total } = await repo.page(q, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toNotice) };
    },

    async update(_auth: Auth, id: string, b: NoticeUpdate): Promise<Notice> {
      const cur = await must(id);
      const patch: Partial<NoticeInsert> = {};
      if (b.kind !== undefined) patch.kind = b.kind;
      if (b.title !== undefined) patch.title = b.title;
      if (b.content !== undefined) patch.content = b.content;
      if (b.platform !== undefined) patch.platform = b.platform;
      if (b.version !== undefined) patch.version = b.version;
      if (b.startTime !== undefined) patch.startTime = time(b.startTime, 'startTime');
      if (b.endTime !== undefined) patch.endTime = time(b.endTime, 'endTime');
      if (b.isShow !== undefined) patch.isShow = flag(b.isShow);
      if (b.changes !== undefined) patch.changes = b.changes;
      check({ ...cur, ...patch });
      const row = await repo.update(id, patch);
      if (!row) throw notFound('Notice not found');
      return toNotice(row);
    },

    async remove(_auth: Auth, id: string): Promise<void> {
      if (!(await repo.remove(id))) throw notFound('Notice not found');
    },

    /** "Do not show again" — only for oneself. */
    async setUserState(auth: Auth, noticeId: string, userId: string, noLongerShow: boolean | 0 | 1) {
      if (auth.userId !== userId) throw forbidden();
      await must(noticeId);
      const hide = flag(noLongerShow);
      await repo.setUserState(noticeId, userId, hide);
      return { noticeId, userId, noLongerShow: hide };
    },

    /**
     * The notices to show the caller now (spec §7 user notice query). Without a `platform` the
     * caller's tenant's platform is taken, so a notice aimed at one platform reaches only its tenants.
     */
    async activeFor(auth: Auth, userId: string, q: { currentTime?: string; platform?: number }): Promise<Notice[]> {
      if (auth.userId !== userId) throw forbidden();
      const now = q.currentTime === undefined ? new Date() : parseTimeInput(q.currentTime);
      if (!now) throw badRequest('http.400', 'currentTime: not a valid time', 'currentTime');
      const platform = q.platform ?? (await repo.tenantPlatform(auth.tenantId)) ?? undefined;
      return (await repo.activeFor(userId, now, platform)).map(toNotice);
    },
  };
}
export type NoticeService = ReturnType<typeof noticeService>;
