import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';

describe('CUTROOM_JOB_LEASE_SECONDS', () => {
  it('defaults to 60 and takes whole seconds from 3 to 3600', () => {
    expect(loadConfig({}).jobLeaseSeconds).toBe(60);
    expect(loadConfig({ CUTROOM_JOB_LEASE_SECONDS: '8' }).jobLeaseSeconds).toBe(8);
    expect(loadConfig({ CUTROOM_JOB_LEASE_SECONDS: ' 3600 ' }).jobLeaseSeconds).toBe(3600);
  });

  it('refuses a lease too short to heartbeat in, too long, or not a whole number, naming the variable', () => {
    for (const v of ['2', '3601', '1.5', 'a minute']) {
      expect(() => loadConfig({ CUTROOM_JOB_LEASE_SECONDS: v })).toThrow(ConfigError);
      expect(() => loadConfig({ CUTROOM_JOB_LEASE_SECONDS: v })).toThrow(/CUTROOM_JOB_LEASE_SECONDS/);
    }
  });
});
