import fs from 'node:fs';
import path from 'node:path';

/**
 * A stand-in for yt-dlp: checks the arguments, then answers by video id like the real CLI would.
 * `-J` prints the info JSON. A download (`-o <template>`) copies a fixture video to the template's
 * path (`%(ext)s` → the fixture's extension): the file named by FAKE_YTDLP_MEDIA, else
 * `fake-ytdlp-media.mp4` next to the script (`fake-ytdlp-media.webm` for the id `webmonly001`).
 */
export const FAKE_YTDLP = String.raw`#!node
const args = process.argv.slice(2);
const sep = args.indexOf('--');
const oAt = args.indexOf('-o');
if (oAt >= 0) download();
else if (!args.includes('-J') || !args.includes('--no-playlist') || !args.includes('--no-warnings') || sep < 0 || sep !== args.length - 2) {
  process.stderr.write('fake yt-dlp: unexpected arguments ' + JSON.stringify(args) + '\n');
  process.exit(2);
}
const url = args[sep + 1];
const m = /[?&]v=([A-Za-z0-9_-]{11})/.exec(url);
const id = m ? m[1] : 'other';
const fail = (msg) => { process.stderr.write('ERROR: [youtube] ' + id + ': ' + msg + '\n'); process.exit(1); };
const base = {
  id, title: 'A long talk', uploader: 'Some Channel', duration: 300, width: 1920, height: 1080,
  vcodec: 'avc1.640028', acodec: 'mp4a.40.2', is_live: false, live_status: 'not_live',
  webpage_url: url, thumbnail: 'https://i.ytimg.com/vi/' + id + '/hqdefault.jpg',
  formats: [{ format_id: '140', vcodec: 'none', acodec: 'mp4a.40.2' }, { format_id: '137', vcodec: 'avc1.640028', acodec: 'none', width: 1920, height: 1080 }],
};
const out = (o) => { process.stdout.write(JSON.stringify(Object.assign({}, base, o)) + '\n'); process.exit(0); };
switch (id) {
  case 'privatevid1': fail("Private video. Sign in if you've been granted access to this video"); break;
  case 'agerestrict': fail('Sign in to confirm your age. This video may be inappropriate for some users.'); break;
  case 'regionblock': fail('Video unavailable. The uploader has not made this video available in your country'); break;
  case 'goneeeeeee1': fail('Video unavailable. This video has been removed by the uploader'); break;
  case 'premiere001': fail('This live event will begin in 3 hours.'); break;
  case 'upcomingjs1': out({ title: 'Big premiere', duration: null, live_status: 'is_upcoming', release_timestamp: 1893456000, formats: [] }); break;
  case 'liveliveli1': out({ is_live: true, live_status: 'is_live', duration: null }); break;
  case 'audioonly01': out({ vcodec: 'none', width: null, height: null, formats: [{ format_id: '140', vcodec: 'none', acodec: 'mp4a.40.2' }] }); break;
  case 'tooshort001': out({ duration: 30 }); break;
  case 'slowslowsl1': setTimeout(() => out({}), 10000); break;
  case 'other': out({ title: 'Stream VOD', uploader: 'streamer', duration: 1800 }); break;
  default: out({});
}

function download() {
  const fs = require('fs');
  const path = require('path');
  const need = ['-f', '--merge-output-format', '--no-playlist', '--no-warnings', '--ffmpeg-location'];
  if (need.some((a) => !args.includes(a)) || sep < 0 || sep !== args.length - 2 || args[args.indexOf('--merge-output-format') + 1] !== 'mp4') {
    process.stderr.write('fake yt-dlp: unexpected arguments ' + JSON.stringify(args) + '\n');
    process.exit(2);
  }
  const url = args[sep + 1];
  const m = /[?&]v=([A-Za-z0-9_-]{11})/.exec(url);
  const id = m ? m[1] : 'other';
  const fail = (msg) => { process.stderr.write('ERROR: [youtube] ' + id + ': ' + msg + '\n'); process.exit(1); };
  const loc = args[args.indexOf('--ffmpeg-location') + 1];
  const ffmpeg = fs.existsSync(loc) && fs.statSync(loc).isDirectory() ? path.join(loc, 'ffmpeg') : loc;
  if (!fs.existsSync(ffmpeg)) fail('ffmpeg not found. Please install or provide the path using --ffmpeg-location');
  switch (id) {
    case 'privatevid1': return fail("Private video. Sign in if you've been granted access to this video");
    case 'agerestrict': return fail('Sign in to confirm your age. This video may be inappropriate for some users.');
    case 'regionblock': return fail('Video unavailable. The uploader has not made this video available in your country');
    case 'goneeeeeee1': return fail('Video unavailable. This video has been removed by the uploader');
    case 'premiere001': return fail('This live event will begin in 3 hours.');
    case 'processing1': return fail('This video is still being processed. Please try again later.');
    case 'liveliveli1': {
      const mf = args.indexOf('--match-filter');
      if (mf >= 0 && /!is_live/.test(args[mf + 1])) { process.stdout.write('[download] A long talk does not pass filter (!is_live), skipping ..\n'); process.exit(0); }
      return fail('fake yt-dlp: would record a live stream');
    }
  }
  const ext = id === 'webmonly001' ? 'webm' : 'mp4';
  const media = (ext === 'mp4' && process.env.FAKE_YTDLP_MEDIA) || path.join(path.dirname(process.argv[1]), 'fake-ytdlp-media.' + ext);
  if (!fs.existsSync(media)) fail('fake yt-dlp: no fixture at ' + media);
  const dest = args[oAt + 1].replace(/%\(ext\)s/g, ext).replace(/%\(id\)s/g, id);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  process.stdout.write('[youtube] ' + id + ': Downloading webpage\n[info] ' + id + ': Downloading 1 format(s): 137+140\n[download] Destination: ' + dest + '\n');
  fs.copyFileSync(media, dest + '.part');
  for (const p of ['25.0', '50.0', '75.0', '100']) process.stdout.write('[download] ' + p.padStart(5) + '% of ~ 1.00MiB at 1.00MiB/s ETA 00:00\n');
  fs.renameSync(dest + '.part', dest);
  process.exit(0);
}
`;

/** Writes the fake yt-dlp executable into `dir` and returns its path. */
export function writeFakeYtDlp(dir: string): string {
  const file = path.join(dir, 'yt-dlp');
  fs.writeFileSync(file, FAKE_YTDLP.replace('#!node', `#!${process.execPath}`), { mode: 0o755 });
  return file;
}
