export * from './isotp.ts';
