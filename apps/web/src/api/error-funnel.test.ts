import { ErrorCodes } from '@loggerhead/contract/errors.ts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { errorText, reasonText } from './error-funnel.ts';
import errors from './i18n.ts';

describe('reasonText (why a long-running job ended)', () => {
  for (const lang of ['zh', 'en'] as const) {
    const cat = errors[lang];
    const t = (k: string) => cat[k] ?? k;
    const has = (k: string) => k in cat;

    it(`${lang}: a job interrupted by a server restart reads in the console's language`, () => {
      const shown = reasonText(ErrorCodes['job.interrupted'].message, t, has);
      expect(shown).toBe(cat['errors.job.interrupted']);
      expect(shown).not.toBe('');
    });

    it(`${lang}: any other reason is shown as the server wrote it; none is empty`, () => {
      expect(reasonText('transfer: negative response 0x72 generalProgrammingFailure', t, has)).toBe(
        'transfer: negative response 0x72 generalProgrammingFailure',
      );
      expect(reasonText(null, t, has)).toBe('');
    });
  }

  it('the two languages differ for the restart reason', () => {
    expect(errors.zh['errors.job.interrupted']).not.toBe(errors.en['errors.job.interrupted']);
  });
});

describe("errorText of an ECU's negative answer", () => {
  const refused = (nrc: number, name: string) =>
    new ApiError('http', 422, [{ code: 'uds.negative-response', message: `The ECU refused: ${name}`, details: { nrc, name } }]);

  it('names the NRC and its meaning in Chinese', () => {
    const t = (k: string) => errors.zh[k] ?? k;
    const has = (k: string) => k in errors.zh;
    expect(errorText(refused(0x31, 'requestOutOfRange'), t, has)).toBe('ECU 拒绝了该请求 — 请求超出范围 (NRC 0x31)');
  });

  it('names the NRC and its meaning in English', () => {
    const t = (k: string) => errors.en[k] ?? k;
    const has = (k: string) => k in errors.en;
    expect(errorText(refused(0x33, 'securityAccessDenied'), t, has)).toBe(
      'The ECU refused the request — Security access denied (NRC 0x33)',
    );
  });

  it('an NRC the console does not know is shown by its number and the name the server gave', () => {
    const t = (k: string) => errors.en[k] ?? k;
    const has = (k: string) => k in errors.en;
    expect(errorText(refused(0x93, 'nrc 0x93'), t, has)).toBe('The ECU refused the request — nrc 0x93 (NRC 0x93)');
  });
});
