import {
  CODE_RE,
  confirmProblem,
  DEFAULT_AREA_CODE,
  emailProblem,
  lengthBetween,
  mobileProblem,
  passwordProblem,
  type RuleCode,
  usernameProblem,
} from '@loggerhead/contract/schemas/accounts.ts';
import type { FormInstance, FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { looksDomesticUnderForeignCode } from './countries.ts';

/**
 * Form rules built from the contract's validators (spec §5), so the console refuses
 * exactly what the server would and shows the same numbered codes (§8).
 */
export function problemRule(t: TFunction, problem: (value: string) => RuleCode): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const code = problem(typeof value === 'string' ? value.trim() : '');
      if (code) throw new Error(t(`errors.${code}`));
    },
  };
}

export const rules = {
  /** 002 / 004; the area code is read from the form item `areaField`. */
  mobile: (t: TFunction, form: FormInstance, areaField = 'area_code'): FormRule[] => [
    problemRule(t, (v) => mobileProblem(v, form.getFieldValue(areaField) || DEFAULT_AREA_CODE)),
    {
      warningOnly: true,
      validator: async (_r, v: unknown) => {
        if (typeof v === 'string' && looksDomesticUnderForeignCode(v, form.getFieldValue(areaField) || DEFAULT_AREA_CODE)) {
          throw new Error(t('widgets.phone.prefixWarning'));
        }
      },
    },
  ],
  username: (t: TFunction): FormRule[] => [problemRule(t, usernameProblem)],
  password: (t: TFunction): FormRule[] => [problemRule(t, passwordProblem)],
  /** 012 / 011 against the item `passwordField`. */
  confirm: (t: TFunction, form: FormInstance, passwordField = 'password'): FormRule[] => [
    problemRule(t, (v) => confirmProblem(form.getFieldValue(passwordField), v)),
  ],
  email: (t: TFunction): FormRule[] => [problemRule(t, emailProblem)],
  /** 014 (SMS) or 021 (e-mail): six digits. */
  code: (t: TFunction, emptyCode: '014' | '021' = '014'): FormRule[] => [problemRule(t, (v) => (CODE_RE.test(v) ? null : emptyCode))],
  /** Personal info texts (spec §5): 2-32 characters, or 2-20 for names. */
  length: (t: TFunction, min: number, max: number, required = true): FormRule[] => [
    {
      validator: async (_r, v: unknown) => {
        const s = typeof v === 'string' ? v.trim() : '';
        if (!s && !required) return;
        if (!s) throw new Error(t('widgets.rules.required'));
        if (!lengthBetween(s, min, max)) throw new Error(t('widgets.rules.length', { min, max }));
      },
    },
  ],
};
