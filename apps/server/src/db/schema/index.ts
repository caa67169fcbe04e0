export * from './core.ts';
export * from './messages.ts';
export * from './billing.ts';
export * from './devices.ts';
export * from './accounts.ts';
export * from './signals.ts';
export * from './alerts.ts';
export * from './remote.ts';
