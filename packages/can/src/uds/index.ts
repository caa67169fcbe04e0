export * from './crc32.ts';
export * from './flash.ts';
export * from './seed-key.ts';
export * from './uds.ts';
