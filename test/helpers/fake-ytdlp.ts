import fs from 'node:fs';
import path from 'node:path';

/** A stand-in for yt-dlp: checks the arguments, then answers by video id like the real CLI would. */
export const FAKE_YTDLP = String.raw`#!node
const args = process.argv.slice(2);
const sep = args.indexOf('--');
if (!args.includes('-J') || !args.includes('--no-playlist') || !args.includes('--no-warnings') || sep < 0 || sep !== args.length - 2) {
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
`;

/** Writes the fake yt-dlp executable into `dir` and returns its path. */
export function writeFakeYtDlp(dir: string): string {
  const file = path.join(dir, 'yt-dlp');
  fs.writeFileSync(file, FAKE_YTDLP.replace('#!node', `#!${process.execPath}`), { mode: 0o755 });
  return file;
}
