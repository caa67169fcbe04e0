import { MAX_CONFIG_FILE_BYTES } from '@loggerhead/contract/schemas/command.ts';
import { describe, expect, it } from 'vitest';
import { cleanConfig, configFileText, parseConfigFile } from './config-file.ts';

describe('parseConfigFile', () => {
  it('reads back what export wrote', () => {
    const config = { timer_period_ms: 100, remote_port: 1883, time_filters: [{ begin: '08:00', end: '18:00', enabled: true }] };
    const text = configFileText(config);
    expect(parseConfigFile(text, text.length)).toEqual({ ok: true, config });
  });
  it('accepts a bare config object', () => {
    expect(parseConfigFile('{"record_file_size_mb":512}', 30)).toEqual({ ok: true, config: { record_file_size_mb: 512 } });
  });
  it('refuses files above 10 MB without parsing them', () => {
    expect(parseConfigFile('{}', MAX_CONFIG_FILE_BYTES + 1)).toEqual({ ok: false, error: 'tooLarge' });
    expect(parseConfigFile('{}', MAX_CONFIG_FILE_BYTES).ok).toBe(true);
  });
  it('refuses broken JSON and values out of the spec ranges', () => {
    expect(parseConfigFile('{', 1)).toMatchObject({ ok: false, error: 'badJson' });
    expect(parseConfigFile('{"record_file_size_mb":513}', 30)).toMatchObject({ ok: false, error: 'badConfig' });
    expect(parseConfigFile('{"timer_period_ms":9}', 30)).toMatchObject({ ok: false, error: 'badConfig' });
    expect(parseConfigFile('{"unknown":1}', 30)).toMatchObject({ ok: false, error: 'badConfig' });
  });
});

describe('cleanConfig', () => {
  it('keeps only the fields that are set', () => {
    expect(cleanConfig({ timer_period_ms: 10, record_time: undefined, remote_host: '', local_port: 0 })).toEqual({
      timer_period_ms: 10,
      local_port: 0,
    });
  });
});
