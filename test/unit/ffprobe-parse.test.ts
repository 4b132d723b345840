import { describe, expect, it } from 'vitest';
import { ProbeError, parseProbeOutput, probeArgs, streamRotation } from '../../src/adapters/media/ffprobe.js';

const h264 = (extra: Record<string, unknown> = {}) => ({
  index: 0,
  codec_name: 'h264',
  codec_type: 'video',
  width: 1920,
  height: 1080,
  avg_frame_rate: '30000/1001',
  r_frame_rate: '30000/1001',
  duration: '125.125000',
  disposition: { default: 1, attached_pic: 0 },
  ...extra,
});
const aac = {
  index: 1,
  codec_name: 'aac',
  codec_type: 'audio',
  sample_rate: '48000',
  channels: 2,
  duration: '125.100000',
  disposition: { default: 1, attached_pic: 0 },
};

describe('parseProbeOutput', () => {
  it('reads an ordinary MP4 with video and audio', () => {
    const info = parseProbeOutput({
      streams: [h264(), aac],
      format: {
        format_name: 'mov,mp4,m4a,3gp,3g2,mj2',
        duration: '125.125000',
        size: '52428800',
        bit_rate: '3352000',
        tags: { title: 'Keynote', artist: 'ACME', encoder: 'Lavf60' },
      },
    });
    expect(info).toEqual({
      duration: 125.125,
      width: 1920,
      height: 1080,
      hasVideo: true,
      hasAudio: true,
      videoCodec: 'h264',
      audioCodec: 'aac',
      rotation: 0,
      fps: 29.97,
      title: 'Keynote',
      artist: 'ACME',
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      sizeBytes: 52428800,
      bitRate: 3352000,
    });
  });

  it('swaps width and height for a portrait phone video (display matrix, ffmpeg >= 5)', () => {
    const info = parseProbeOutput({
      streams: [h264({ side_data_list: [{ side_data_type: 'Display Matrix', displaymatrix: '...', rotation: -90 }] }), aac],
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.0' },
    });
    expect([info.width, info.height, info.rotation]).toEqual([1080, 1920, 90]);
  });

  it('reads the older rotate tag, and keeps the size for 180°', () => {
    expect(parseProbeOutput({ streams: [h264({ tags: { rotate: '270' } })], format: { duration: '5' } })).toMatchObject({
      width: 1080,
      height: 1920,
      rotation: 270,
    });
    expect(parseProbeOutput({ streams: [h264({ tags: { rotate: '180' } })], format: { duration: '5' } })).toMatchObject({
      width: 1920,
      height: 1080,
      rotation: 180,
    });
    expect(streamRotation({ side_data_list: [{ rotation: 90 }] })).toBe(270);
    expect(streamRotation({ side_data_list: [{ rotation: -180 }] })).toBe(180);
    expect(streamRotation({ side_data_list: [{ side_data_type: 'CPB properties' }] })).toBe(0);
  });

  it('does not count cover art as video (MP3 with an attached picture)', () => {
    const info = parseProbeOutput({
      streams: [
        { index: 0, codec_name: 'mp3', codec_type: 'audio', avg_frame_rate: '0/0', duration: '70.060408', disposition: { attached_pic: 0 } },
        {
          index: 1,
          codec_name: 'mjpeg',
          codec_type: 'video',
          width: 64,
          height: 64,
          avg_frame_rate: '0/0',
          r_frame_rate: '90000/1',
          disposition: { attached_pic: 1 },
        },
      ],
      format: { format_name: 'mp3', duration: '70.060408', size: '280757', tags: { title: 'Song', TPE1: 'x' } },
    });
    expect(info).toMatchObject({
      hasVideo: false,
      hasAudio: true,
      width: 0,
      height: 0,
      videoCodec: null,
      audioCodec: 'mp3',
      title: 'Song',
      duration: 70.060408,
    });
    expect(info.fps).toBeUndefined();
  });

  it('reads a video without audio, and takes the longest stream when the format has no duration', () => {
    const info = parseProbeOutput({ streams: [h264({ duration: '61.5' })], format: { format_name: 'matroska,webm', duration: 'N/A' } });
    expect(info).toMatchObject({ hasVideo: true, hasAudio: false, audioCodec: null, duration: 61.5 });
  });

  it('accepts upper-case tag keys (Matroska) and author tags', () => {
    const info = parseProbeOutput({ streams: [h264()], format: { format_name: 'matroska,webm', duration: '90', tags: { TITLE: 'Talk', AUTHOR: 'Speaker' } } });
    expect([info.title, info.artist]).toEqual(['Talk', 'Speaker']);
  });

  it('skips a zero-size video stream in favour of a real one, and tolerates missing fields', () => {
    const info = parseProbeOutput({
      streams: [{ codec_type: 'video', codec_name: 'h264', width: 0, height: 0 }, h264({ width: 640, height: 360 }), { codec_type: 'data' }],
      format: {},
    });
    expect([info.width, info.height, info.duration, info.formatName]).toEqual([640, 360, 125.125, '']);
  });

  it('refuses output that is not a probe result', () => {
    expect(() => parseProbeOutput(null)).toThrow(ProbeError);
    expect(() => parseProbeOutput('text')).toThrow(ProbeError);
    expect(() => parseProbeOutput({})).toThrow(ProbeError);
  });
});

describe('probeArgs', () => {
  it('never lets a URL input open local files', () => {
    const args = probeArgs('http://127.0.0.1:9/tok/a.mp4', { timeoutMs: 5000, format: 'mov' });
    expect(args).toContain('-show_streams');
    const wl = args[args.indexOf('-protocol_whitelist') + 1];
    expect(wl).toBe('http,tcp');
    expect(args[args.indexOf('-f') + 1]).toBe('mov');
    expect(args[args.indexOf('-rw_timeout') + 1]).toBe('5000000');
    expect(args.at(-1)).toBe('http://127.0.0.1:9/tok/a.mp4');
  });

  it('reads local paths through file: so names with colons or dashes stay names', () => {
    const args = probeArgs('/tmp/http:evil.mp4', { format: 'matroska' });
    expect(args.at(-1)).toBe('file:/tmp/http:evil.mp4');
    expect(args[args.indexOf('-protocol_whitelist') + 1]).toBe('file');
    expect(args.slice(-4, -1)).toEqual(['-f', 'matroska', '-i']);
  });

  it('names a demuxer always, and only one the service reads (never hls, concat or image2)', () => {
    for (const bad of ['hls', 'concat', 'image2', 'applehttp', 'm3u8', '']) {
      expect(() => probeArgs('/tmp/a.mp4', { format: bad })).toThrow(ProbeError);
    }
  });
});
