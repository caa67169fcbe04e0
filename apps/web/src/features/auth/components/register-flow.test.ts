import { describe, expect, it } from 'vitest';
import { earliestStep, type RegisterValues, registrationBody, STEP, stepOfField } from './register-flow.ts';

const values: RegisterValues = {
  tenant_type: 0,
  merchant_id: 'M-1',
  area_code: '86',
  mobile: ' 13812345678 ',
  mobile_verification_code: '123456',
  username: 'fleet_one',
  password: 'Fleet-2024',
  confirmPassword: 'Fleet-2024',
  agreement: true,
  email: 'ops@example.com',
  email_verification_code: '654321',
  gender: 'female',
  job: 'Engineer',
  organization_name: 'ACME',
  industry: 'Logistics',
  address: 'Road 1',
};

describe('registration flow (spec §4)', () => {
  it('sends a bad SMS code back to step 1 and a bad e-mail code back to step 2', () => {
    expect(stepOfField('mobile_verification_code')).toBe(STEP.account);
    expect(stepOfField('email_verification_code')).toBe(STEP.email);
    expect(earliestStep(['email', 'job'], STEP.done)).toBe(STEP.email);
    expect(earliestStep(['address', 'username'], STEP.done)).toBe(STEP.account);
    expect(earliestStep([], STEP.profile)).toBe(STEP.profile);
  });

  it('copies the username into name and namespace and trims the mobile', () => {
    const body = registrationBody(values, { withEmail: true, withProfile: true });
    expect(body).toMatchObject({ username: 'fleet_one', name: 'fleet_one', namespace: 'fleet_one', mobile: '13812345678' });
    expect(body.email).toBe('ops@example.com');
    expect(body.gender).toBe('female');
  });

  it('sends nothing of a skipped step', () => {
    const body = registrationBody(values, { withEmail: false, withProfile: false });
    expect(body.email).toBeUndefined();
    expect(body.email_verification_code).toBeUndefined();
    expect(body.job).toBeUndefined();
    expect(body.organization_name).toBeUndefined();
    expect(body.gender).toBe('male');
  });

  it('sends the merchant ID only for an owner registration', () => {
    expect(registrationBody(values, { withEmail: false, withProfile: false }).merchant_id).toBeUndefined();
    expect(registrationBody({ ...values, tenant_type: 2 }, { withEmail: false, withProfile: false }).merchant_id).toBe('M-1');
  });
});
