import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_MAX_TRIES,
  CODE_RE,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  type CodePurpose,
  emailProblem,
  mobileProblem,
  serverText,
  type TextLang,
  type VerificationCodeRequest,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import type { Notifier } from '../../notify/notifier.ts';
import { secretsRepository } from '../control/secrets.repository.ts';
import { type VerificationRepository, verificationRepository } from './verification.repository.ts';

/** Per client address: by default at most this many codes in IP_WINDOW_MS (stops one client spraying numbers). */
export const IP_LIMIT = 10;
export const IP_WINDOW_MS = 10 * 60_000;

export type CodeCheck = 'ok' | 'invalid';

/** E-mail destinations compare case-insensitively; numbers as typed without spaces. */
export function normaliseDestination(type: 1 | 2, destination: string): string {
  const d = destination.trim();
  return type === 2 ? d.toLowerCase() : d.replace(/[\s-]/g, '');
}

export async function loadCodeKey(raw: RawSql): Promise<Buffer> {
  const value = await secretsRepository(raw).getOrCreate('code-hmac', randomBytes(32).toString('base64'));
  return Buffer.from(value, 'base64');
}

export function verificationService(deps: { raw: RawSql; notifier: Notifier; key: Buffer; now?: () => Date; ipLimit?: number }) {
  const ipLimit = deps.ipLimit ?? IP_LIMIT;
  const repo: VerificationRepository = verificationRepository(deps.raw);
  const now = deps.now ?? (() => new Date());
  const hash = (destination: string, purpose: string, code: string) =>
    createHmac('sha256', deps.key).update(`${destination}\n${purpose}\n${code}`).digest('base64');

  return {
    /** POST /tenant/verification-codes; the text is in the asker's language (zh unless it asks for en). */
    async send(req: VerificationCodeRequest, ip: string, lang: TextLang = 'zh'): Promise<{ expires_in: number; resend_in: number }> {
      const destination = normaliseDestination(req.type, req.destination);
      const problem = req.type === 1 ? mobileProblem(destination, req.area_code) : emailProblem(destination);
      if (problem) throw new ApiError(400, problem, undefined, { field: 'destination' });

      const last = await repo.lastSentTo(destination);
      if (last) {
        const left = Math.ceil((last.getTime() + CODE_RESEND_SECONDS * 1000 - now().getTime()) / 1000);
        if (left > 0) throw new ApiError(429, 'code.too-soon', undefined, { details: { seconds: left } });
      }
      if ((await repo.countFromIpSince(ip, new Date(now().getTime() - IP_WINDOW_MS))) >= ipLimit) {
        throw new ApiError(429, 'rate.limited');
      }

      // Now and then, drop codes nobody can use any more (kept a day for the rate limits).
      if (Math.random() < 0.01) await repo.deleteOlderThan(new Date(now().getTime() - 24 * 3600_000));
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await repo.insert({
        channel: req.type === 1 ? 'sms' : 'email',
        destination,
        purpose: req.purpose,
        codeHash: hash(destination, req.purpose, code),
        ip,
        expiresAt: new Date(now().getTime() + CODE_TTL_SECONDS * 1000),
      });
      const params = {
        brand: 'Loggerhead',
        purpose: serverText(lang, `code.purpose.${req.purpose satisfies CodePurpose}`),
        code,
        minutes: CODE_TTL_SECONDS / 60,
      };
      const sent = await deps.notifier.send({
        channel: req.type === 1 ? 'sms' : 'email',
        destination,
        purpose: req.purpose,
        subject: serverText(lang, 'code.subject', params),
        text: serverText(lang, 'code.text', params),
      });
      if (sent.status === 'failed') throw new ApiError(503, 'notify.failed');
      return { expires_in: CODE_TTL_SECONDS, resend_in: CODE_RESEND_SECONDS };
    },

    /**
     * Checks a code. A wrong code counts a try; the 5th wrong try burns it. With
     * `consume` a right code is used up; without, it stays for the final step
     * (registration checks every field before using its codes).
     */
    async check(type: 1 | 2, destination: string, purpose: CodePurpose, code: string, consume: boolean): Promise<CodeCheck> {
      if (!CODE_RE.test(code)) return 'invalid';
      const dest = normaliseDestination(type, destination);
      const row = await repo.latestOpen(dest, purpose);
      if (!row || row.expires_at <= now() || row.attempts >= CODE_MAX_TRIES) return 'invalid';
      const a = Buffer.from(row.code_hash);
      const b = Buffer.from(hash(dest, purpose, code));
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        await repo.addAttempt(row.id);
        return 'invalid';
      }
      if (consume && !(await repo.consume(row.id))) return 'invalid';
      return 'ok';
    },

    /** Uses up a code already checked (after the change it authorised committed). */
    async consume(type: 1 | 2, destination: string, purpose: CodePurpose): Promise<void> {
      const row = await repo.latestOpen(normaliseDestination(type, destination), purpose);
      if (row) await repo.consume(row.id);
    },
  };
}
export type VerificationService = ReturnType<typeof verificationService>;
