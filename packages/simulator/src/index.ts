// Device simulator: connects like a real logger, replays logs, runs synthetic fleets.

export { DeviceAgent, type Envelope, type OperationHandler } from './commands.ts';
export { type GpsReplayOptions, type GpsTrackFile, readGpsCsv, replayGps, timeShift } from './gps-track.ts';
export { type FleetOptions, type FleetResult, runFleet, syntheticFrames } from './fleet.ts';
export { type DeviceOptions, LoggerDevice, type ReplayOptions, replay } from './logger-device.ts';
export { type ModelBlockSpec, ModelDevice } from './model-device.ts';
export { RemoteDevice, type RemoteDeviceOptions } from './remote-device.ts';
