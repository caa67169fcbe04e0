import { PACKAGE_DEFAULTS, type TenantPackage } from '@loggerhead/contract/schemas/billing.ts';
import { describe, expect, it } from 'vitest';
import { bounds, checkNumber, effectiveMode, generalAllowed, initialValue, pieShare, toRequest } from './capacity-rules.ts';

const pkg = (over: Partial<TenantPackage> = {}): TenantPackage => ({
  tenant_id: 't',
  ...PACKAGE_DEFAULTS,
  special_storage: 0,
  quick_delete_things_list: [],
  platform: 0,
  updated_at: '',
  ...over,
});

describe('capacity request form rules', () => {
  it('never goes below the current package value', () => {
    const p = pkg({ things_num: 40, database_storage_space: 5 });
    expect(bounds(p, 'things_num').min).toBe(40);
    expect(checkNumber(p, 'things_num', 39)).toBe('capacity.form.belowCurrent');
    expect(checkNumber(p, 'things_num', 40)).toBeNull();
    expect(checkNumber(p, 'database_storage_space', 4)).toBe('capacity.form.belowCurrent');
  });

  it('caps numbers at 100000 and batch recall at 50', () => {
    const p = pkg();
    expect(checkNumber(p, 'things_num', 100_000)).toBeNull();
    expect(checkNumber(p, 'things_num', 100_001)).toBe('capacity.form.max');
    expect(checkNumber(p, 'max_batch_recall_size', 50)).toBeNull();
    expect(checkNumber(p, 'max_batch_recall_size', 51)).toBe('capacity.form.recallMax');
  });

  it('takes integers only', () => {
    expect(checkNumber(pkg(), 'things_num', 12.5)).toBe('capacity.form.integer');
    expect(checkNumber(pkg(), 'things_num', Number.NaN)).toBe('capacity.form.integer');
    expect(checkNumber(pkg(), 'things_num', undefined)).toBe('capacity.form.required');
  });

  it('asks for retention in months and sends days', () => {
    const p = pkg({ maximum_data_retention_days: 180 });
    expect(initialValue(p, 'retention_months')).toBe(6);
    expect(checkNumber(p, 'retention_months', 5)).toBe('capacity.form.belowCurrent');
    const body = toRequest({ retention_months: 7, special_storage: 1, quick_delete_things: [] }, []);
    expect(body.maximum_data_retention_days).toBe(210);
  });

  it('starts at the spec default when the package is lower, at the package when higher, unset when unlimited', () => {
    expect(initialValue(pkg({ things_num: 2 }), 'things_num')).toBe(10);
    expect(initialValue(pkg({ things_num: 500 }), 'things_num')).toBe(500);
    expect(initialValue(pkg({ can_things_num: null }), 'can_things_num')).toBeNull();
  });

  it('forces exclusive storage above 3 months or 2 GB', () => {
    expect(generalAllowed(3, 2)).toBe(true);
    expect(generalAllowed(4, 2)).toBe(false);
    expect(generalAllowed(3, 3)).toBe(false);
    expect(effectiveMode(0, 4, 2)).toBe(1);
    expect(effectiveMode(0, 2, 2)).toBe(0);
    expect(effectiveMode(2, 12, 50)).toBe(2);
  });

  it('sends the chosen quick-delete devices only in quick-delete mode', () => {
    const devices = [
      { id: 'a', third_things_id: 'AAAAAAAAAAAAAAAAAAAA', info_model_id: 'm', info_model_name: 'CANDTU-200' },
      { id: 'b', third_things_id: 'BBBBBBBBBBBBBBBBBBBB', info_model_id: 'm', info_model_name: 'CANDTU-200' },
    ];
    const quick = toRequest({ special_storage: 2, quick_delete_things_num: 1, quick_delete_things: ['b'] }, devices);
    expect(quick.quick_delete_things_list).toEqual([
      { third_things_id: 'BBBBBBBBBBBBBBBBBBBB', info_model_id: 'm', info_model_name: 'CANDTU-200' },
    ]);
    const exclusive = toRequest({ special_storage: 1, quick_delete_things: ['b'] }, devices);
    expect(exclusive.quick_delete_things_list).toBeUndefined();
  });

  it('draws the pie from the rate in 1/100 percent, full at 10000', () => {
    expect(pieShare(2500)).toBe(0.25);
    expect(pieShare(10_000)).toBe(1);
    expect(pieShare(15_000)).toBe(1);
  });
});
