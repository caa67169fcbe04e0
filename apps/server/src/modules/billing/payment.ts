import type { PaymentInstructionsSchema } from '@loggerhead/contract';
import type { z } from 'zod';

export type PaymentInstructions = z.infer<typeof PaymentInstructionsSchema>;

/**
 * A way to pay an order. The order service asks the provider of the order's `pay_type` how to pay
 * (`start`); the order becomes paid when the provider's payment is confirmed: for a bank transfer,
 * by a system manager reading the uploaded receipt (`POST /billing/orders/{id}/confirm`); for an
 * online provider plugged in later, by its notification calling the same `confirm` of the service.
 */
export interface PaymentProvider {
  readonly payType: string;
  /** Whether the payer uploads a receipt that a system manager confirms. */
  readonly takesReceipt: boolean;
  start(order: { order_no: string; pay_amount: number }): Promise<PaymentInstructions>;
}

/** Bank transfer: the payer transfers the amount quoting the order number, then uploads the receipt. */
export function bankTransfer(account: string | null): PaymentProvider {
  return {
    payType: 'bank-transfer',
    takesReceipt: true,
    async start(order) {
      return { pay_type: 'bank-transfer', amount: order.pay_amount, reference: order.order_no, account, receipt: true };
    },
  };
}
