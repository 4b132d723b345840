import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Edit } from '../../src/domain/edits/edit.js';
import { buildFilterComplex, buildRenderCommand, escapeFilterValue, reframeFilters, sec, type RenderPaths } from '../../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';

const style = getBuiltinTemplate('bold-pop')!.captions;

function edit(over: Partial<Edit> = {}): Edit {
  return {
    source: { key: 'k', duration: 100, width: 1920, height: 1080 },
    in: 12.5,
    out: 42.5,
    layout: { aspect: '9:16', reframe: 'center' },
    captions: { words: [{ start: 13, end: 13.4, text: 'hi' }], style },
    watermark: false,
    resolution: '1080p',
    ...over,
  };
}

const paths: RenderPaths = {
  input: '/data/in.mp4',
  inputFormat: 'mov',
  output: '/data/out.mp4',
  assFile: '/tmp/r/captions.ass',
  fontsDir: '/data/fonts',
  watermarkFontFile: '/data/fonts/Inter_800ExtraBold.ttf',
};

function valueAfter(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

describe('buildRenderCommand', () => {
  it('seeks accurately before the input, limits the output to out - in and encodes H.264 High + AAC with faststart', () => {
    const cmd = buildRenderCommand(edit(), paths, { hasAudio: true });
    const a = cmd.args;
    expect(a.indexOf('-ss')).toBeLessThan(a.indexOf('-i'));
    expect(valueAfter(a, '-ss')).toBe('12.5');
    expect(valueAfter(a, '-i')).toBe(`file:${path.resolve('/data/in.mp4')}`);
    expect(valueAfter(a, '-protocol_whitelist')).toBe('file');
    expect(a.slice(a.indexOf('-i') - 2, a.indexOf('-i'))).toEqual(['-f', 'mov']);
    expect(a.indexOf('-t')).toBeGreaterThan(a.indexOf('-i'));
    expect(valueAfter(a, '-t')).toBe('30');
    expect(cmd.durationSeconds).toBe(30);
    expect([cmd.width, cmd.height]).toEqual([1080, 1920]);
    expect(valueAfter(a, '-c:v')).toBe('libx264');
    expect(valueAfter(a, '-profile:v')).toBe('high');
    expect(valueAfter(a, '-pix_fmt')).toBe('yuv420p');
    expect(valueAfter(a, '-preset')).toBe('veryfast');
    expect(valueAfter(a, '-crf')).toBe('20');
    expect(valueAfter(a, '-c:a')).toBe('aac');
    expect(valueAfter(a, '-ar')).toBe('48000');
    expect(valueAfter(a, '-ac')).toBe('2');
    expect(valueAfter(a, '-movflags')).toBe('+faststart');
    expect(a.filter((x) => x === '-map')).toHaveLength(2);
    expect(a).toContain('[v]');
    expect(a).toContain('[a]');
    expect(a[a.length - 1]).toBe(`file:${path.resolve('/data/out.mp4')}`);
    expect(valueAfter(a, '-filter_complex')).toBe(cmd.filterComplex);
  });

  it('normalises loudness to -14 LUFS, or makes a silent stereo track for a source without audio', () => {
    const loud = buildFilterComplex(edit(), paths, { hasAudio: true });
    expect(loud).toContain('[0:a:0]loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000');
    expect(loud).toMatch(/channel_layouts=stereo\[a\]$/);
    const silent = buildFilterComplex(edit(), paths, { hasAudio: false });
    expect(silent).not.toContain('[0:a');
    expect(silent).toContain('anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=30');
  });
});

describe('reframe', () => {
  it('center crops the largest 9:16 window in the middle, then scales to the output', () => {
    expect(reframeFilters(edit())).toBe('[0:v]crop=w=606:h=1080:x=656:y=0,scale=1080:1920,setsar=1[framed]');
    expect(reframeFilters(edit({ layout: { aspect: '1:1', reframe: 'center' }, resolution: '720p' }))).toBe(
      '[0:v]crop=w=1080:h=1080:x=420:y=0,scale=720:720,setsar=1[framed]',
    );
  });

  it('does not crop a source that already has the aspect', () => {
    expect(reframeFilters(edit({ layout: { aspect: '16:9', reframe: 'center' } }))).toBe('[0:v]scale=1920:1080,setsar=1[framed]');
  });

  it('speaker follows the crop path, sliced to the clip and shifted to start at 0', () => {
    const cropPath = [
      { t: 0, x: 0, y: 0, w: 606, h: 1080 },
      { t: 20, x: 200, y: 0, w: 606, h: 1080 },
      { t: 30, x: 1000, y: 0, w: 606, h: 1080 },
    ];
    const f = reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'speaker', cropPath } }));
    expect(f).toMatch(/^\[0:v\]crop=w=606:h=1080:x='[^']*':y='0',scale=1080:1920,setsar=1\[framed\]$/);
    // The source keyframe at t=20 is at clip time 7.5; x is 125 at the clip start (12.5 s).
    expect(f).toContain('lt(t,7.5)');
    expect(f).toContain("x='if(");
    expect(f).toContain('126+');
  });

  it('speaker without a crop path crops the centre', () => {
    expect(reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'speaker' } }))).toBe(reframeFilters(edit()));
  });

  it('fit shows the whole frame over a blurred, filled copy', () => {
    const f = reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'fit' } }));
    expect(f).toContain('[0:v]split=2[bgsrc][fgsrc]');
    expect(f).toContain('boxblur=');
    expect(f).toContain(',scale=1080:1920,setsar=1[bg]');
    expect(f).toContain('[fgsrc]scale=1080:608,setsar=1[fg]');
    expect(f).toContain('[bg][fg]overlay=x=0:y=656');
    expect(reframeFilters(edit({ layout: { aspect: '16:9', reframe: 'fit' } }))).toBe('[0:v]scale=1920:1080,setsar=1[framed]');
  });

  it('zoom crops the middle 1/zoom of the framed picture (after the reframe crop, before the scale); none without it', () => {
    const zoom = 'crop=w=iw-4*round(iw*(1-1/1.5)/4):h=ih-4*round(ih*(1-1/1.5)/4),';
    expect(reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'center', zoom: 1.5 } }))).toBe(
      `[0:v]crop=w=606:h=1080:x=656:y=0,${zoom}scale=1080:1920,setsar=1[framed]`,
    );
    const cropPath = [
      { t: 0, x: 0, y: 0, w: 606, h: 1080 },
      { t: 30, x: 1000, y: 0, w: 606, h: 1080 },
    ];
    expect(reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'speaker', cropPath, zoom: 1.5 } }))).toMatch(
      /^\[0:v\]crop=w=606:h=1080:x='[^']*':y='0',crop=w=iw-4\*round\(iw\*\(1-1\/1\.5\)\/4\):h=ih-4\*round\(ih\*\(1-1\/1\.5\)\/4\),scale=1080:1920,setsar=1\[framed\]$/,
    );
    expect(reframeFilters(edit({ layout: { aspect: '16:9', reframe: 'center', zoom: 2 } }))).toBe(
      '[0:v]crop=w=iw-4*round(iw*(1-1/2)/4):h=ih-4*round(ih*(1-1/2)/4),scale=1920:1080,setsar=1[framed]',
    );
    expect(reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'fit', zoom: 2 } }))).toMatch(
      /overlay=x=0:y=656:format=auto,crop=w=iw-4\*round\(iw\*\(1-1\/2\)\/4\):h=ih-4\*round\(ih\*\(1-1\/2\)\/4\),scale=1080:1920,setsar=1\[framed\]$/,
    );
    expect(reframeFilters(edit({ layout: { aspect: '9:16', reframe: 'center', zoom: 1 } }))).toBe(reframeFilters(edit()));
  });
});

describe('captions, title and watermark', () => {
  it('burns the ASS file with the fonts folder', () => {
    const f = buildFilterComplex(edit(), paths, { hasAudio: true });
    expect(f).toContain("[framed]ass=filename=\\'/tmp/r/captions.ass\\':fontsdir=\\'/data/fonts\\',format=yuv420p[v]");
    const none = buildFilterComplex(edit({ captions: null }), { ...paths, assFile: null }, { hasAudio: true });
    expect(none).not.toContain('ass=');
    expect(none).toContain('[framed]format=yuv420p[v]');
  });

  it('draws a semi-transparent "Cutroom" watermark in a corner with the shipped font', () => {
    const f = buildFilterComplex(edit({ watermark: true }), paths, { hasAudio: true });
    expect(f).toContain("drawtext=fontfile=\\'/data/fonts/Inter_800ExtraBold.ttf\\':text=Cutroom:");
    expect(f).toMatch(/fontcolor=white@0\.\d+/);
    expect(f).toContain('x=w-tw-');
    expect(() => buildFilterComplex(edit({ watermark: true }), { ...paths, watermarkFontFile: null }, { hasAudio: true })).toThrow(RangeError);
  });
});

describe('escaping and numbers', () => {
  it('quotes filter values at both levels', () => {
    expect(escapeFilterValue('/a/b.ass')).toBe("\\'/a/b.ass\\'");
    expect(escapeFilterValue('C:/x,y;[z]')).toBe("\\'C:/x\\,y\\;\\[z\\]\\'");
    expect(escapeFilterValue("it's")).toBe("\\'it\\'\\\\\\'\\'s\\'");
  });

  it('formats seconds without float noise', () => {
    expect(sec(0)).toBe('0');
    expect(sec(12.5)).toBe('12.5');
    expect(sec(0.1 + 0.2)).toBe('0.3');
    expect(sec(59.99999)).toBe('60');
  });
});
