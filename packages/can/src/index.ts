export * from './dbc/dbc.decoder.ts';
export * from './dbc/dbc.encoder.ts';
export { signalBitPositions, signalBytesNeeded } from './dbc/dbc.layout.ts';
export type * from './dbc/dbc.model.ts';
export { parseDbc } from './dbc/dbc.parser.ts';
export { dbcText, summarizeDbc } from './dbc/dbc.summary.ts';
export * from './frame.ts';
export * from './logs/index.ts';
