import { describe, expect, it } from 'vitest';
import type { Edit } from '../../src/domain/edits/edit.js';
import { buildFilterComplex, buildRenderCommand, previewSize, reframeFilters, type RenderPaths } from '../../src/adapters/media/filter-graph.js';
import { buildAss } from '../../src/adapters/media/captions.ass.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';

const style = getBuiltinTemplate('bold-pop')!.captions;
const cropPath = [
  { t: 0, x: 0, y: 0, w: 606, h: 1080 },
  { t: 100, x: 1000, y: 0, w: 606, h: 1080 },
];

function edit(over: Partial<Edit> = {}): Edit {
  return {
    source: { key: 'k', duration: 100, width: 1920, height: 1080 },
    in: 12.5,
    out: 42.5,
    layout: { aspect: '9:16', reframe: 'speaker', cropPath },
    captions: { words: [{ start: 13, end: 13.4, text: 'hi' }], style },
    watermark: true,
    resolution: '1080p',
    ...over,
  };
}
const cut = (over: Partial<Edit> = {}): Edit =>
  edit({
    segments: [
      { start: 12.5, end: 20 },
      { start: 22, end: 30 },
      { start: 35, end: 42.5 },
    ],
    ...over,
  });

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

describe('the final render of an edit without cuts', () => {
  it('keeps exactly the command it had before cuts and previews existed', () => {
    // Arguments printed by the code before this change, for the same edit.
    const before = [
      '-protocol_whitelist',
      'file',
      '-ss',
      '12.5',
      '-f',
      'mov',
      '-i',
      'file:/data/in.mp4',
      '-filter_complex',
      "[0:v]crop=w=606:h=1080:x='if(lt(t,0),126,if(lt(t,30),126+10*(t-0),426))':y='0',scale=1080:1920,setsar=1[framed];[framed]ass=filename=\\'/tmp/r/captions.ass\\':fontsdir=\\'/data/fonts\\',drawtext=fontfile=\\'/data/fonts/Inter_800ExtraBold.ttf\\':text=Cutroom:fontsize=49:fontcolor=white@0.55:shadowcolor=black@0.35:shadowx=2:shadowy=2:x=w-tw-43:y=43,format=yuv420p[v];[0:a:0]loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]",
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-t',
      '30',
      '-c:v',
      'libx264',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-max_muxing_queue_size',
      '4096',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      'file:/data/out.mp4',
    ];
    const beforeSilent = [
      '-protocol_whitelist',
      'file',
      '-ss',
      '12.5',
      '-f',
      'mov',
      '-i',
      'file:/data/in.mp4',
      '-filter_complex',
      "[0:v]crop=w=606:h=1080:x='if(lt(t,0),126,if(lt(t,30),126+10*(t-0),426))':y='0',scale=1080:1920,setsar=1[framed];[framed]ass=filename=\\'/tmp/r/captions.ass\\':fontsdir=\\'/data/fonts\\',drawtext=fontfile=\\'/data/fonts/Inter_800ExtraBold.ttf\\':text=Cutroom:fontsize=49:fontcolor=white@0.55:shadowcolor=black@0.35:shadowx=2:shadowy=2:x=w-tw-43:y=43,format=yuv420p[v];anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=30,aformat=sample_fmts=fltp[a]",
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-t',
      '30',
      '-c:v',
      'libx264',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-max_muxing_queue_size',
      '4096',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      'file:/data/out.mp4',
    ];
    expect(buildRenderCommand(edit(), paths, { hasAudio: true }).args).toEqual(before);
    expect(buildRenderCommand(edit(), paths, { hasAudio: true, quality: 'final' }).args).toEqual(before);
    expect(buildRenderCommand(edit(), paths, { hasAudio: true, quality: 'final', fps: 29.97 }).args).toEqual(before);
    expect(buildRenderCommand(edit(), paths, { hasAudio: false }).args).toEqual(beforeSilent);
  });
});

describe('an edit with segments', () => {
  it('cuts picture and sound of each stretch (input time starts at in) and joins them in order', () => {
    const f = buildFilterComplex(cut(), paths, { hasAudio: true });
    expect(f).toContain('[0:v]split=3[vs0][vs1][vs2]');
    expect(f).toContain('[0:a:0]asplit=3[as0][as1][as2]');
    expect(f).toContain('[vs0]trim=start=0:end=7.5,setpts=PTS-STARTPTS[vc0]');
    expect(f).toContain('[vs1]trim=start=9.5:end=17.5,setpts=PTS-STARTPTS[vc1]');
    expect(f).toContain('[vs2]trim=start=22.5:end=30,setpts=PTS-STARTPTS[vc2]');
    expect(f).toContain('[as1]atrim=start=9.5:end=17.5,asetpts=PTS-STARTPTS');
    expect(f).toContain('[vc0][ac0][vc1][ac1][vc2][ac2]concat=n=3:v=1:a=1[cutv][cuta]');
    expect(f).toContain('[cuta]loudnorm=I=-14:TP=-1.5:LRA=11');
    expect(f).not.toContain('[0:v]crop');
  });

  it('fades the sound out and in for 5 ms at every joint, not at the ends', () => {
    const f = buildFilterComplex(cut(), paths, { hasAudio: true });
    const chain = (i: number) => new RegExp(`\\[as${i}\\]([^\\[]*)\\[ac${i}\\]`).exec(f)![1];
    expect(chain(0)).toBe('atrim=start=0:end=7.5,asetpts=PTS-STARTPTS,afade=t=out:st=7.495:d=0.005');
    expect(chain(1)).toBe('atrim=start=9.5:end=17.5,asetpts=PTS-STARTPTS,afade=t=in:st=0:d=0.005,afade=t=out:st=7.995:d=0.005');
    expect(chain(2)).toBe('atrim=start=22.5:end=30,asetpts=PTS-STARTPTS,afade=t=in:st=0:d=0.005');
  });

  it('cuts at the source frames when the frame rate is known (from -ss floored to the millisecond)', () => {
    const e = cut({
      in: 12.51,
      segments: [
        { start: 12.51, end: 20 },
        { start: 22.01, end: 30.03 },
      ],
      out: 30.03,
    });
    const cmd = buildRenderCommand(e, paths, { hasAudio: true, fps: 30 });
    expect(valueAfter(cmd.args, '-ss')).toBe('12.533');
    expect(cmd.filterComplex).toContain('[vs0]trim=start=0.000333:end=7.500333,setpts=PTS-STARTPTS[vc0]');
    expect(cmd.filterComplex).toContain('[as0]atrim=start=0.000333:end=7.500333,asetpts=PTS-STARTPTS');
    expect(cmd.filterComplex).toContain('[vs1]trim=start=9.500333:end=17.500333,');
    // 7.49 s + 8.02 s asked: 225 + 240 frames, within half a frame of the sum.
    expect(cmd.durationSeconds).toBeCloseTo(15.5, 5);
  });

  it('seeks to the first stretch and limits the output to the sum of the stretches', () => {
    const cmd = buildRenderCommand(cut(), paths, { hasAudio: true });
    expect(valueAfter(cmd.args, '-ss')).toBe('12.5');
    expect(valueAfter(cmd.args, '-t')).toBe('23');
    expect(cmd.durationSeconds).toBe(23);
  });

  it('moves the speaker crop with the cuts (a jump at each joint)', () => {
    const f = reframeFilters(cut(), 'framed', '[cutv]');
    // x = 10 px per source second: 125 at 12.5 s, 200 at 20 s | 220 at 22 s ...
    expect(f.startsWith('[cutv]crop=w=606:h=1080:')).toBe(true);
    expect(f).toContain("x='if(lt(t,7.5),if(lt(t,0),126,126+9.8667*(t-0))"); // keyframes rounded to even pixels
    expect(f).toContain('if(lt(t,15.5),220+10*(t-7.5)');
  });

  it('without source audio joins only the picture and makes silence of the output length', () => {
    const f = buildFilterComplex(cut(), paths, { hasAudio: false });
    expect(f).toContain('[vc0][vc1][vc2]concat=n=3:v=1:a=0[cutv]');
    expect(f).not.toContain('0:a');
    expect(f).toContain('anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=23');
  });

  it('captions follow the cuts: removed words are gone, the rest shifted', () => {
    const words = [
      { start: 13, end: 13.4, text: 'first' },
      { start: 20.5, end: 21, text: 'removed' },
      { start: 22.5, end: 23, text: 'second' },
      { start: 36, end: 36.5, text: 'third' },
    ];
    const ass = buildAss(cut({ captions: { words, style } }))!;
    expect(ass).not.toMatch(/REMOVED/);
    expect(ass).toMatch(/Dialogue: 0,0:00:00\.50,[^\n]*FIRST/);
    expect(ass).toMatch(/Dialogue: 0,0:00:08\.00,[^\n]*SECOND/);
    expect(ass).toMatch(/Dialogue: 0,0:00:16\.50,[^\n]*THIRD/);
  });
});

describe('previews', () => {
  it('are 360 px on the short side', () => {
    expect(previewSize('9:16')).toEqual({ width: 360, height: 640 });
    expect(previewSize('16:9')).toEqual({ width: 640, height: 360 });
    expect(previewSize('1:1')).toEqual({ width: 360, height: 360 });
  });

  it('frame, cut and caption like the final render, smaller and with x264 ultrafast', () => {
    const final = buildRenderCommand(cut(), paths, { hasAudio: true });
    const preview = buildRenderCommand(cut(), paths, { hasAudio: true, quality: 'preview' });
    expect([preview.width, preview.height]).toEqual([360, 640]);
    expect(valueAfter(preview.args, '-preset')).toBe('ultrafast');
    expect(valueAfter(preview.args, '-t')).toBe(valueAfter(final.args, '-t'));
    expect(preview.filterComplex).toContain('scale=360:640,setsar=1[framed]');
    expect(preview.filterComplex.replace('scale=360:640', 'scale=1080:1920').replace(/fontsize=\d+.*x=w-tw-\d+:y=\d+/, 'WATERMARK')).toBe(
      final.filterComplex.replace(/fontsize=\d+.*x=w-tw-\d+:y=\d+/, 'WATERMARK'),
    );
    const fit = buildRenderCommand(edit({ layout: { aspect: '16:9', reframe: 'fit' } }), paths, { hasAudio: true, quality: 'preview' });
    expect([fit.width, fit.height]).toEqual([640, 360]);
  });
});
