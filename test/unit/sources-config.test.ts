import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/env.js';
import { loadSourcesConfig } from '../../src/config/sources.env.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-srccfg-'));
const exe = path.join(dir, 'yt-dlp');
fs.writeFileSync(exe, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
const plain = path.join(dir, 'not-exec');
fs.writeFileSync(plain, 'x', { mode: 0o644 });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loadSourcesConfig', () => {
  it('defaults: private sources refused, yt-dlp from PATH when present', () => {
    expect(loadSourcesConfig({ PATH: '/nonexistent' })).toEqual({ allowPrivateSources: false, ytdlpPath: null, ytdlpTimeoutMs: 60000, probeTimeoutMs: 30000 });
    expect(loadSourcesConfig({ PATH: `/nonexistent${path.delimiter}${dir}` }).ytdlpPath).toBe(exe);
  });

  it('parses CUTROOM_ALLOW_PRIVATE_SOURCES', () => {
    for (const v of ['true', 'TRUE', '1', 'yes', 'on']) expect(loadSourcesConfig({ CUTROOM_ALLOW_PRIVATE_SOURCES: v }).allowPrivateSources).toBe(true);
    for (const v of ['false', '0', 'no', 'off', '']) expect(loadSourcesConfig({ CUTROOM_ALLOW_PRIVATE_SOURCES: v }).allowPrivateSources).toBe(false);
    expect(() => loadSourcesConfig({ CUTROOM_ALLOW_PRIVATE_SOURCES: 'maybe' })).toThrow(ConfigError);
  });

  it('parses CUTROOM_YTDLP_PATH: a path, a name on PATH, or off', () => {
    expect(loadSourcesConfig({ CUTROOM_YTDLP_PATH: exe }).ytdlpPath).toBe(exe);
    expect(loadSourcesConfig({ CUTROOM_YTDLP_PATH: 'yt-dlp', PATH: dir }).ytdlpPath).toBe(exe);
    expect(loadSourcesConfig({ CUTROOM_YTDLP_PATH: 'off', PATH: dir }).ytdlpPath).toBeNull();
    expect(() => loadSourcesConfig({ CUTROOM_YTDLP_PATH: plain })).toThrow(ConfigError);
    expect(() => loadSourcesConfig({ CUTROOM_YTDLP_PATH: path.join(dir, 'missing') })).toThrow(ConfigError);
  });

  it('checks timeouts and binary overrides', () => {
    expect(loadSourcesConfig({ CUTROOM_YTDLP_TIMEOUT_MS: '5000', CUTROOM_PROBE_TIMEOUT_MS: '2000' })).toMatchObject({
      ytdlpTimeoutMs: 5000,
      probeTimeoutMs: 2000,
    });
    expect(() => loadSourcesConfig({ CUTROOM_PROBE_TIMEOUT_MS: '10' })).toThrow(ConfigError);
    expect(() => loadSourcesConfig({ CUTROOM_YTDLP_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(loadSourcesConfig({ FFPROBE_PATH: exe }).ffprobePath).toBe(exe);
    expect(() => loadSourcesConfig({ FFMPEG_PATH: path.join(dir, 'nope') })).toThrow(ConfigError);
  });
});
