import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { AsrError } from '../../src/ports/asr.js';
import { transcriptions } from '../../src/adapters/db/schema/index.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';
import { makeSpeechWav, type SpeechPart } from '../helpers/speech-fixtures.js';

/**
 * Standalone transcription over HTTP with in-process workers and the real engines (ffmpeg, Silero
 * VAD, pocketsphinx, the diarizer): uploads, the charge, the cache, no speech, speaker labels,
 * transcript and files, deletion, errors and the ledger.
 */

const SENTENCES = [
  'Good morning, and welcome to the weekly planning meeting.',
  'Thanks. I want to start with the budget for the next quarter.',
  'Sure. We spent a little more than expected on travel last month.',
  'That is fine, as long as the conference brought us new customers.',
];

let t: TestApp;
let fx: string;
const files: Record<string, string> = {};

/** Plan of the main workspace: 3 credits per started minute, 2 more with speaker labels. */
const PLAN = 'trn';

beforeAll(async () => {
  fx = tempDir('cutroom-trn-fx-');
  // A conversation of two clearly different voices (espeak-ng m3 / f3), about 20 s.
  const parts: SpeechPart[] = [{ silence: 0.6 }];
  SENTENCES.forEach((say, i) => parts.push({ say, voice: i % 2 ? 'en-us+f3' : 'en-us+m3', speed: 150 }, { silence: 0.5 }));
  files.conv = (await makeSpeechWav(path.join(fx, 'meeting.wav'), parts)).path;
  files.tiny = (await makeSpeechWav(path.join(fx, 'hello.wav'), [{ silence: 0.3 }, { say: 'hello and welcome back to the show' }, { silence: 0.5 }])).path;
  files.silence = path.join(fx, 'silence.wav');
  await runFfmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '8', '-c:a', 'pcm_s16le', files.silence]);
  files.noise = path.join(fx, 'noise.flac');
  await runFfmpeg(['-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.5:sample_rate=16000:seed=7', '-t', '8', '-c:a', 'flac', files.noise]);
  files.mute = await makeVideo(path.join(fx, 'mute.mp4'), { seconds: 3, audio: false });
  t = await createTestApp({ workers: true });
  await t.c.plans.create(PLAN, { transcription_credits_per_minute: 3, speaker_labels_credits_per_minute: 2 });
  await t.c.plans.create('tiny', { max_upload_size: 1000 });
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

const CONTENT_TYPES: Record<string, string> = { '.wav': 'audio/wav', '.flac': 'audio/flac', '.mp4': 'video/mp4', '.mp3': 'audio/mpeg' };

/** POST /transcriptions/upload then PUT the bytes to the signed URL (no key); returns the media id. */
async function upload(key: string, file: string, name = path.basename(file)): Promise<string> {
  const contentType = CONTENT_TYPES[path.extname(file)];
  const bytes = fs.readFileSync(file);
  const up = await t.api(key, 'POST', '/transcriptions/upload', { file_name: name, file_size: bytes.length, content_type: contentType });
  expect(up.status).toBe(200);
  const u = new URL(up.body.upload_url);
  const put = await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': contentType }, payload: bytes });
  expect(put.statusCode).toBe(200);
  return up.body.media_id;
}

async function poll(key: string, id: string, timeoutMs = 400_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.api(key, 'GET', `/transcriptions/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status !== 'processing') return res.body;
    if (Date.now() > deadline) throw new Error(`transcription ${id} still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function balance(key: string): Promise<number> {
  return (await t.api(key, 'GET', '/balance')).body.balance;
}

/** The workspace's charge and refund rows, oldest first. */
async function jobLedger(key: string) {
  const res = await t.api(key, 'GET', '/balance/history?limit=100');
  return res.body.entries
    .filter((e: any) => e.kind === 'charge' || e.kind === 'refund')
    .reverse()
    .map((e: any) => ({ kind: e.kind, amount: e.amount, balance_after: e.balance_after, waived: e.waived, job_type: e.job_type, job_id: e.job_id }));
}

/** SRT back into cues. */
function parseSrt(srt: string) {
  const time = (s: string) => {
    const m = /^(\d+):(\d\d):(\d\d),(\d\d\d)$/.exec(s)!;
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
  };
  return srt
    .trim()
    .split(/\n\n/)
    .filter(Boolean)
    .map((block, i) => {
      const lines = block.split('\n');
      expect(lines[0]).toBe(String(i + 1));
      const [a, b] = lines[1].split(' --> ');
      return { start: time(a), end: time(b), text: lines.slice(2).join('\n') };
    });
}

function checkCues(cues: Array<{ start: number; end: number; text: string }>) {
  expect(cues.length).toBeGreaterThan(0);
  for (const [i, c] of cues.entries()) {
    const lines = c.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(2);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(42);
    expect(c.end - c.start).toBeLessThanOrEqual(7.001);
    expect(c.end).toBeGreaterThan(c.start);
    if (i > 0) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].end);
  }
}

/**
 * The words: in time order, each inside a cue whose text holds it (with its speaker when labelled),
 * every cue's words spelling its text, a confidence 0..1 (pocketsphinx reports one) and nothing more.
 */
function checkWords(cues: Array<{ start: number; end: number; text: string; speaker?: string }>, words: any[], labelled: boolean) {
  expect(words.length).toBeGreaterThan(0);
  let w = 0;
  for (const c of cues) {
    const inside: any[] = [];
    while (w < words.length && words[w].start < c.end - 1e-9) inside.push(words[w++]);
    expect(inside.map((x) => x.text).join(' '), JSON.stringify(c)).toBe(c.text.replace(/\n/g, ' '));
    for (const x of inside) {
      expect(x.start).toBeGreaterThanOrEqual(c.start - 1e-9);
      expect(x.end).toBeLessThanOrEqual(c.end + 1e-9);
      expect(x.end).toBeGreaterThanOrEqual(x.start);
      expect(x.confidence).toBeGreaterThanOrEqual(0);
      expect(x.confidence).toBeLessThanOrEqual(1);
      expect(Object.keys(x).sort()).toEqual(labelled ? ['confidence', 'end', 'speaker', 'start', 'text'] : ['confidence', 'end', 'start', 'text']);
      if (labelled) expect(x.speaker).toBe(c.speaker);
    }
  }
  expect(w).toBe(words.length);
}

describe('POST /transcriptions/upload', () => {
  it('answers media_id, kind, a signed URL valid one hour; audio and video extensions', async () => {
    const ws = await t.workspace();
    const audio = await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.mp3', file_size: 1000, content_type: 'audio/mpeg' });
    expect(audio.status).toBe(200);
    expect(Object.keys(audio.body).sort()).toEqual(['expires_in', 'kind', 'media_id', 'upload_url']);
    expect(audio.body).toMatchObject({ kind: 'audio', expires_in: 3600 });
    expect(audio.body.media_id).toMatch(/^med_/);
    for (const [name, type] of [
      ['a.wav', 'audio/wav'],
      ['a.m4a', 'audio/mp4'],
      ['a.aac', 'audio/aac'],
      ['a.ogg', 'audio/ogg'],
      ['a.opus', 'audio/opus'],
      ['a.flac', 'audio/flac'],
    ]) {
      const r = await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: name, file_size: 10, content_type: type });
      expect(r.status, name).toBe(200);
      expect(r.body.kind).toBe('audio');
    }
    const video = await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.mov', file_size: 10, content_type: 'video/quicktime' });
    expect(video.body.kind).toBe('video');
  });

  it('refuses other extensions and content types that do not match', async () => {
    const ws = await t.workspace();
    for (const [body, field] of [
      [{ file_name: 'talk.avi', file_size: 10, content_type: 'video/x-msvideo' }, 'file_name'],
      [{ file_name: 'talk.mp3', file_size: 10, content_type: 'video/mp4' }, 'content_type'],
      [{ file_name: 'talk.wav', content_type: 'audio/wav' }, 'file_size'],
    ] as const) {
      const r = await t.api(ws.key, 'POST', '/transcriptions/upload', body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
      expect(r.body.extra.errors.map((e: any) => e.field)).toContain(field);
    }
  });

  it('answers 413 FILE_TOO_LARGE with the plan ceiling above the plan’s max upload size', async () => {
    const ws = await t.workspace({ plan: 'tiny' });
    const r = await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.wav', file_size: 1001, content_type: 'audio/wav' });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ code: 'FILE_TOO_LARGE', extra: { max_size: 1000 } });
    expect((await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.wav', file_size: 1000, content_type: 'audio/wav' })).status).toBe(200);
  });
});

describe('POST /transcriptions refusals', () => {
  it('404 MEDIA_NOT_FOUND for an unknown id, 404 FILE_NOT_FOUND before the PUT, 400 for a language the engine cannot do', async () => {
    const ws = await t.workspace({ credits: 10 });
    const unknown = await t.api(ws.key, 'POST', '/transcriptions', { media_id: 'med_nothing' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'MEDIA_NOT_FOUND' });
    const up = await t.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.wav', file_size: 1000, content_type: 'audio/wav' });
    const early = await t.api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id });
    expect(early.status).toBe(404);
    expect(early.body).toEqual({ code: 'FILE_NOT_FOUND' });
    const pt = await t.api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: 'pt' });
    expect(pt.status).toBe(400);
    expect(pt.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'source_language', rule: 'unsupported_by_engine' }] } });
    expect(await balance(ws.key)).toBe(10);
  });

  it('402 INSUFFICIENT_CREDITS with credits_needed and current_balance; nothing is created', async () => {
    const ws = await t.workspace({ credits: 0 });
    const mediaId = await upload(ws.key, files.tiny);
    const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(r.body.extra).toMatchObject({ credits_needed: 2, current_balance: 0 });
    const list = await t.api(ws.key, 'GET', '/transcriptions');
    expect(list.body.transcriptions).toEqual([]);
  });
});

describe('transcription of a conversation', () => {
  let ws: { id: string; key: string };
  let mediaId: string;
  let first: any;
  let labelled: any;
  /** A transcription of the workspace that is not deleted. */
  let liveId: string;

  beforeAll(async () => {
    ws = await t.workspace({ credits: 20, plan: PLAN });
    mediaId = await upload(ws.key, files.conv);
  });

  it('starts with 202 processing charged per started minute; 409 TRANSCRIPTION_NOT_READY until ready', async () => {
    const r = await t.api(ws.key, 'POST', '/transcriptions', {
      media_id: mediaId,
      file_name: 'meeting.wav',
      file_size: fs.statSync(files.conv).size,
      speaker_labels: false,
      source_language: 'en',
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: 'processing',
      credits_charged: 3,
      media_id: mediaId,
      speaker_labels: false,
      source_language: 'en',
      language: null,
      from_cache: false,
      error_code: null,
      finished_at: null,
    });
    expect(r.body.id).toMatch(/^trn_/);
    first = r.body;
    expect(await balance(ws.key)).toBe(17);

    const transcript = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/transcript`);
    expect(transcript.status).toBe(409);
    expect(transcript.body).toEqual({ code: 'TRANSCRIPTION_NOT_READY', extra: { status: 'processing' } });
    const download = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/download?format=vtt`);
    expect(download.status).toBe(409);
    expect(download.body.code).toBe('TRANSCRIPTION_NOT_READY');

    // The same request while it runs answers the running transcription; nothing is charged again.
    const again = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.id);
    expect(await balance(ws.key)).toBe(17);

    const done = await poll(ws.key, first.id);
    expect(done).toMatchObject({ status: 'ready', credits_charged: 3, language: 'en', error_code: null });
    expect(new Date(done.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(done.created_at).getTime());
  }, 600_000);

  it('while processing, shows the step under way, how far it is and the seconds left', async () => {
    const done = (await t.api(ws.key, 'GET', `/transcriptions/${first.id}`)).body;
    expect(done.stage).toBeUndefined();
    expect(done.progress).toBeUndefined();
    // The same row seen mid-run (then put back): the recogniser 10 s into 20 minutes of audio.
    const set = (changes: Partial<typeof transcriptions.$inferInsert>) =>
      t.c.database.db.update(transcriptions).set(changes).where(eq(transcriptions.id, first.id));
    try {
      await set({ status: 'processing', stage: null, stageStartedAt: null, mediaSeconds: 1200 });
      const queued = (await t.api(ws.key, 'GET', `/transcriptions/${first.id}`)).body;
      expect(queued).toMatchObject({ status: 'processing', stage: 'queued', progress: 0 });
      await set({ stage: 'recognising', stageStartedAt: new Date(Date.now() - 10_000) });
      const running = (await t.api(ws.key, 'GET', `/transcriptions/${first.id}`)).body;
      expect(running.stage).toBe('recognising');
      expect(running.progress).toBeGreaterThan(0.1);
      expect(running.progress).toBeLessThan(0.5);
      expect(running.estimated_time).toBeLessThan(queued.estimated_time);
      expect(running.estimated_time).toBeGreaterThan(60);
    } finally {
      await set({ status: 'ready' });
    }
  });

  it('answers the transcript: readable cues without speakers', async () => {
    const r = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/transcript`);
    expect(r.status).toBe(200);
    expect(r.body.language).toBe('en');
    expect(r.body.speaker_labels).toBe(false);
    checkCues(r.body.cues);
    for (const c of r.body.cues) expect(Object.keys(c).sort()).toEqual(['end', 'start', 'text']);
    first.cues = r.body.cues;
    first.words = r.body.words;
    checkWords(r.body.cues, r.body.words, false);
    expect(r.body.text).toBe(r.body.cues.map((c: any) => c.text.replace(/\n/g, ' ')).join(' '));
  });

  it('downloads SRT (default), WebVTT and TXT files with their type and file name', async () => {
    const srt = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/download`);
    expect(srt.status).toBe(200);
    expect(srt.headers['content-type']).toBe('application/x-subrip; charset=utf-8');
    expect(srt.headers['content-disposition']).toBe(`attachment; filename="meeting.srt"; filename*=UTF-8''meeting.srt`);
    const parsed = parseSrt(srt.body);
    expect(parsed).toHaveLength(first.cues.length);
    parsed.forEach((c, i) => {
      expect(c.start).toBeCloseTo(first.cues[i].start, 3);
      expect(c.end).toBeCloseTo(first.cues[i].end, 3);
      expect(c.text).toBe(first.cues[i].text);
    });
    const vtt = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/download?format=vtt`);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers['content-disposition']).toContain('filename="meeting.vtt"');
    expect(vtt.body.startsWith('WEBVTT\n\n1\n')).toBe(true);
    expect(vtt.body.match(/ --> /g)).toHaveLength(first.cues.length);
    const txt = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/download?format=txt`);
    expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(txt.body.replace(/\s+/g, ' ').trim()).toBe(first.cues.map((c: any) => c.text.replace(/\n/g, ' ')).join(' '));
    const bad = await t.api(ws.key, 'GET', `/transcriptions/${first.id}/download?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  it('is a cache hit for the same media and for a re-upload of identical bytes: 200 ready, 0 credits', async () => {
    const same = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: false });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ status: 'ready', credits_charged: 0, from_cache: true, language: 'en' });
    expect(same.body.id).not.toBe(first.id);
    const again = await upload(ws.key, files.conv, 'copy of meeting.wav');
    expect(again).not.toBe(mediaId);
    const copy = await t.api(ws.key, 'POST', '/transcriptions', { media_id: again, source_language: 'auto' });
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ status: 'ready', credits_charged: 0, from_cache: true, media_id: again, file_name: 'copy of meeting.wav' });
    const transcript = await t.api(ws.key, 'GET', `/transcriptions/${copy.body.id}/transcript`);
    expect(transcript.body.cues).toEqual(first.cues);
    expect(transcript.body.words).toEqual(first.words);
    expect(await balance(ws.key)).toBe(17);
  });

  it('reprocesses and charges again when speaker labels are asked after a run without them', async () => {
    const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true, source_language: 'en' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'processing', credits_charged: 5, speaker_labels: true, from_cache: false });
    expect(await balance(ws.key)).toBe(12);
    labelled = await poll(ws.key, r.body.id);
    expect(labelled).toMatchObject({ status: 'ready', credits_charged: 5 });

    const transcript = await t.api(ws.key, 'GET', `/transcriptions/${labelled.id}/transcript`);
    expect(transcript.body.speaker_labels).toBe(true);
    checkCues(transcript.body.cues);
    for (const c of transcript.body.cues) expect(c.speaker).toMatch(/^[A-F]$/);
    expect(new Set(transcript.body.cues.map((c: any) => c.speaker))).toEqual(new Set(['A', 'B']));
    checkWords(transcript.body.cues, transcript.body.words, true);

    const srt = await t.api(ws.key, 'GET', `/transcriptions/${labelled.id}/download`);
    expect(srt.body).toMatch(/^[AB]: /m);
    const plain = await t.api(ws.key, 'GET', `/transcriptions/${labelled.id}/download?speakers=false`);
    expect(plain.body).not.toMatch(/^[AB]: /m);
    expect(parseSrt(plain.body).map((c) => c.text)).toEqual(transcript.body.cues.map((c: any) => c.text));
    const vtt = await t.api(ws.key, 'GET', `/transcriptions/${labelled.id}/download?format=vtt`);
    expect(vtt.body).toContain('<v A>');
    expect(vtt.body).toContain('<v B>');
    const txt = await t.api(ws.key, 'GET', `/transcriptions/${labelled.id}/download?format=txt&speakers=false`);
    expect(txt.body).not.toMatch(/^[AB]: /m);

    // Now labelled results serve both kinds of request for free.
    const withLabels = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true });
    expect(withLabels.status).toBe(200);
    expect(withLabels.body).toMatchObject({ status: 'ready', credits_charged: 0, from_cache: true, speaker_labels: true });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${withLabels.body.id}/transcript`)).body.cues).toEqual(transcript.body.cues);
    // A request without labels served from the labelled result shows no speakers on cues or words.
    const unlabelled = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: false });
    const plainWords = (await t.api(ws.key, 'GET', `/transcriptions/${unlabelled.body.id}/transcript`)).body.words;
    expect(plainWords.length).toBe(transcript.body.words.length);
    for (const w of plainWords) expect(w.speaker).toBeUndefined();
    expect(await balance(ws.key)).toBe(12);
  }, 600_000);

  it('speakers_expected: only with labels; exactly that many speakers; its own cache entry', async () => {
    const other = await t.workspace({ credits: 20, plan: PLAN });
    const media = await upload(other.key, files.conv);
    const bad = await t.api(other.key, 'POST', '/transcriptions', { media_id: media, speakers_expected: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.extra.errors).toEqual([{ field: 'speakers_expected', rule: 'only_with_speaker_labels' }]);
    for (const n of [0, 11, 2.5, '2'])
      expect((await t.api(other.key, 'POST', '/transcriptions', { media_id: media, speaker_labels: true, speakers_expected: n })).status).toBe(400);
    expect(await balance(other.key)).toBe(20);
    // One speaker asked: one label, although two voices talk.
    const one = await t.api(other.key, 'POST', '/transcriptions', { media_id: media, speaker_labels: true, speakers_expected: 1, source_language: 'en' });
    expect(one.status).toBe(202);
    expect(one.body).toMatchObject({ speakers_expected: 1, speaker_labels: true, credits_charged: 5 });
    await poll(other.key, one.body.id);
    const cues = (await t.api(other.key, 'GET', `/transcriptions/${one.body.id}/transcript`)).body.cues;
    expect(new Set(cues.map((c: { speaker: string }) => c.speaker))).toEqual(new Set(['A']));
    // The same number again is a cache hit; an estimate is not served by it.
    const again = await t.api(other.key, 'POST', '/transcriptions', { media_id: media, speaker_labels: true, speakers_expected: 1 });
    expect(again.body).toMatchObject({ status: 'ready', from_cache: true, credits_charged: 0, speakers_expected: 1 });
    const estimate = await t.api(other.key, 'POST', '/transcriptions', { media_id: media, speaker_labels: true, source_language: 'en' });
    expect(estimate.status).toBe(202);
    expect(estimate.body.speakers_expected).toBeUndefined();
    await poll(other.key, estimate.body.id);
  }, 600_000);

  it('DELETE removes it from listings; the same request again is a cache hit, not a second charge', async () => {
    const del = await t.api(ws.key, 'DELETE', `/transcriptions/${first.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: first.id, deleted: true });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${first.id}`)).body).toEqual({ code: 'TRANSCRIPTION_NOT_FOUND' });
    expect((await t.api(ws.key, 'DELETE', `/transcriptions/${first.id}`)).status).toBe(404);
    const list = await t.api(ws.key, 'GET', '/transcriptions?limit=100');
    expect(list.body.transcriptions.map((x: any) => x.id)).not.toContain(first.id);

    // Every other transcription of these bytes is deleted too: the deleted ones still answer.
    for (const x of list.body.transcriptions) expect((await t.api(ws.key, 'DELETE', `/transcriptions/${x.id}`)).status).toBe(200);
    expect((await t.api(ws.key, 'GET', '/transcriptions')).body.pagination.total_count).toBe(0);
    const repeat = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: false, source_language: 'en' });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ status: 'ready', credits_charged: 0, from_cache: true });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${repeat.body.id}/transcript`)).body.cues).toEqual(first.cues);
    expect(await balance(ws.key)).toBe(12);
  });

  it('lists newest first with pagination and filters', async () => {
    await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true });
    const all = await t.api(ws.key, 'GET', '/transcriptions');
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 2, has_next_page: false });
    const [newest, older] = all.body.transcriptions;
    liveId = newest.id;
    expect(newest.speaker_labels).toBe(true);
    expect(older.speaker_labels).toBe(false);
    const page = await t.api(ws.key, 'GET', '/transcriptions?limit=1&page=2');
    expect(page.body.transcriptions.map((x: any) => x.id)).toEqual([older.id]);
    expect(page.body.pagination).toEqual({ current_page: 2, total_pages: 2, total_count: 2, has_next_page: false });
    expect((await t.api(ws.key, 'GET', '/transcriptions?status=failed')).body.transcriptions).toEqual([]);
    expect((await t.api(ws.key, 'GET', `/transcriptions?media_id=${mediaId}`)).body.pagination.total_count).toBe(2);
  });

  it('keeps the books exact: one charge per run, nothing for hits', async () => {
    const ledger = await jobLedger(ws.key);
    expect(ledger).toEqual([
      { kind: 'charge', amount: -3, balance_after: 17, waived: false, job_type: 'transcription', job_id: first.id },
      { kind: 'charge', amount: -5, balance_after: 12, waived: false, job_type: 'transcription', job_id: labelled.id },
    ]);
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(12);
  });

  it('answers 404 to another workspace for every path, and its own media ids only', async () => {
    const other = await t.workspace({ credits: 10 });
    for (const [method, url] of [
      ['GET', `/transcriptions/${liveId}`],
      ['GET', `/transcriptions/${liveId}/transcript`],
      ['GET', `/transcriptions/${liveId}/download`],
      ['DELETE', `/transcriptions/${liveId}`],
    ] as const) {
      const r = await t.api(other.key, method, url);
      expect(r.status, url).toBe(404);
      expect(r.body).toEqual({ code: 'TRANSCRIPTION_NOT_FOUND' });
    }
    const post = await t.api(other.key, 'POST', '/transcriptions', { media_id: mediaId });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ code: 'MEDIA_NOT_FOUND' });
    expect((await t.api(other.key, 'GET', '/transcriptions')).body.transcriptions).toEqual([]);
    expect((await t.api(ws.key, 'GET', `/transcriptions/${liveId}`)).status).toBe(200);
    expect((await t.api(ws.key, 'GET', `/transcriptions/${liveId}/transcript`)).status).toBe(200);
  });
});

describe('no speech', () => {
  it('answers 200 no_speech without a charge for silence, noise and a video without sound', async () => {
    const ws = await t.workspace({ credits: 5 });
    for (const file of [files.silence, files.noise, files.mute]) {
      const mediaId = await upload(ws.key, file);
      const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true });
      expect(r.status, file).toBe(200);
      expect(r.body).toMatchObject({ status: 'no_speech', credits_charged: 0, from_cache: false });
      const transcript = await t.api(ws.key, 'GET', `/transcriptions/${r.body.id}/transcript`);
      expect(transcript.body).toEqual({ language: 'und', speaker_labels: true, cues: [], words: [], text: '' });
      const srt = await t.api(ws.key, 'GET', `/transcriptions/${r.body.id}/download`);
      expect(srt.status).toBe(200);
      expect(srt.body).toBe('');
      expect((await t.api(ws.key, 'GET', `/transcriptions/${r.body.id}/download?format=vtt`)).body.trim()).toBe('WEBVTT');
    }
    // The same silent bytes again: no_speech from the cache, without voice detection.
    const again = await t.api(ws.key, 'POST', '/transcriptions', { media_id: await upload(ws.key, files.silence, 'again.wav'), source_language: 'en' });
    expect(again.body).toMatchObject({ status: 'no_speech', credits_charged: 0, from_cache: true });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${again.body.id}/transcript`)).body.language).toBe('en');
    expect(await balance(ws.key)).toBe(5);
    expect(await jobLedger(ws.key)).toEqual([]);
  }, 120_000);
});

describe('free usage and failures', () => {
  it('under free usage the charge is waived: credits_charged 0, ledger row waived', async () => {
    const ws = await t.workspace({ credits: 1 });
    await t.c.workspaces.setFreeUsage(ws.id, null);
    const mediaId = await upload(ws.key, files.tiny);
    const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId, speaker_labels: true });
    expect(r.status).toBe(202);
    expect(r.body.credits_charged).toBe(0);
    const done = await poll(ws.key, r.body.id);
    expect(done).toMatchObject({ status: 'ready', credits_charged: 0 });
    expect(await jobLedger(ws.key)).toEqual([{ kind: 'charge', amount: -2, balance_after: 1, waived: true, job_type: 'transcription', job_id: r.body.id }]);
    expect(await balance(ws.key)).toBe(1);
  }, 300_000);

  it('a failed job ends in failed with its error_code and refunds; its transcript answers 409 TRANSCRIPTION_FAILED', async () => {
    const ws = await t.workspace({ credits: 10 });
    const mediaId = await upload(ws.key, files.tiny, 'broken.wav');
    const spy = vi.spyOn(t.c.asr, 'transcribe').mockRejectedValue(new AsrError('ASR_ENGINE_FAILED', 'engine crashed'));
    try {
      const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
      expect(r.status).toBe(202);
      expect(r.body.credits_charged).toBe(1);
      expect(await balance(ws.key)).toBe(9);
      const done = await poll(ws.key, r.body.id);
      expect(done).toMatchObject({ status: 'failed', error_code: 'ASR_ENGINE_FAILED', credits_charged: 0 });
      expect(await balance(ws.key)).toBe(10);
      expect(await jobLedger(ws.key)).toEqual([
        { kind: 'charge', amount: -1, balance_after: 9, waived: false, job_type: 'transcription', job_id: r.body.id },
        { kind: 'refund', amount: 1, balance_after: 10, waived: false, job_type: 'transcription', job_id: r.body.id },
      ]);
      for (const url of [`/transcriptions/${r.body.id}/transcript`, `/transcriptions/${r.body.id}/download`]) {
        const res = await t.api(ws.key, 'GET', url);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ code: 'TRANSCRIPTION_FAILED', extra: { error_code: 'ASR_ENGINE_FAILED' } });
      }
      // A failed run is no cache: asking again works and charges again.
      spy.mockRestore();
      const retry = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
      expect(retry.status).toBe(202);
      expect(retry.body.credits_charged).toBe(1);
      expect((await poll(ws.key, retry.body.id)).status).toBe('ready');
      expect(await balance(ws.key)).toBe(9);
    } finally {
      spy.mockRestore();
    }
  }, 300_000);

  it('a job whose every run is lost with its process ends failed JOB_LOST and refunds, without a fourth run', async () => {
    const ws = await t.workspace({ credits: 10 });
    const mediaId = await upload(ws.key, files.tiny, 'kills-the-worker.wav');
    // Each run hangs in the recogniser, as a run whose process was killed there would; the process "dies" by
    // having its active jobs returned to the queue (what a restart of the embedded process does at start).
    // A dead run then ends with a retryable error only to free its fetch loop: its lease is gone, so it
    // records nothing (as a dead process would not).
    let runs = 0;
    const hung: Array<(err: Error) => void> = [];
    const spy = vi.spyOn(t.c.asr, 'transcribe').mockImplementation(() => {
      runs++;
      return new Promise((_, reject) => hung.push(reject));
    });
    const endDeadRuns = () => {
      for (const reject of hung.splice(0)) reject(Object.assign(new Error('its process is gone'), { retryable: true }));
    };
    try {
      const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
      expect(r.status).toBe(202);
      expect(await balance(ws.key)).toBe(9);
      for (let lost = 1; lost <= 3; lost++) {
        const until = Date.now() + 60_000;
        while (runs < lost) {
          if (Date.now() > until) throw new Error(`run ${lost} did not start`);
          await new Promise((res) => setTimeout(res, 100));
        }
        expect((await t.api(ws.key, 'GET', `/transcriptions/${r.body.id}`)).body.status).toBe('processing');
        expect(await t.c.queue.recoverOrphans()).toBe(1);
        if (lost < 3) endDeadRuns();
      }
      const done = await poll(ws.key, r.body.id, 30_000);
      expect(done).toMatchObject({ status: 'failed', error_code: 'JOB_LOST', credits_charged: 0 });
      expect(await balance(ws.key)).toBe(10);
      expect((await jobLedger(ws.key)).map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
        ['charge', -1],
        ['refund', 1],
      ]);
      endDeadRuns();
      await new Promise((res) => setTimeout(res, 1500));
      expect(runs).toBe(3);
      expect((await t.api(ws.key, 'GET', `/transcriptions/${r.body.id}`)).body).toMatchObject({ status: 'failed', error_code: 'JOB_LOST' });
      expect(await balance(ws.key)).toBe(10);
    } finally {
      endDeadRuns();
      spy.mockRestore();
    }
  }, 300_000);
});

describe('no speech found by the job', () => {
  it('ends in no_speech with the charge refunded, credits_charged 0; a repeated job changes nothing', async () => {
    const ws = await t.workspace({ credits: 4 });
    const mediaId = await upload(ws.key, files.silence, 'quiet.wav');
    // Voice detection at creation is made to hear something (as it would not run for a long file), so the job decides.
    const spy = vi.spyOn(t.c.vad, 'detect').mockResolvedValueOnce([{ start: 1, end: 2 }]);
    let id: string;
    try {
      const r = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
      expect(r.status).toBe(202);
      expect(r.body.credits_charged).toBe(1);
      id = r.body.id;
    } finally {
      spy.mockRestore();
    }
    const done = await poll(ws.key, id);
    expect(done).toMatchObject({ status: 'no_speech', credits_charged: 0, error_code: null });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${id}/transcript`)).body).toEqual({
      language: 'und',
      speaker_labels: false,
      cues: [],
      words: [],
      text: '',
    });
    const books = [
      { kind: 'charge', amount: -1, balance_after: 3, waived: false, job_type: 'transcription', job_id: id },
      { kind: 'refund', amount: 1, balance_after: 4, waived: false, job_type: 'transcription', job_id: id },
    ];
    expect(await jobLedger(ws.key)).toEqual(books);
    // A retried or duplicated job finds it finished and does nothing.
    await t.c.transcriptionProcessor.run(id, { retryCount: 0, retryLimit: 2 });
    expect(await jobLedger(ws.key)).toEqual(books);
    expect(await balance(ws.key)).toBe(4);
  }, 120_000);
});

describe('OpenAPI', () => {
  it('documents every transcription path with its answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const paths = doc.paths as Record<string, Record<string, any>>;
    expect(Object.keys(paths['/api/v1/transcriptions']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/transcriptions/upload'])).toEqual(['post']);
    expect(Object.keys(paths['/api/v1/transcriptions/{transcriptionId}']).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/api/v1/transcriptions']['post'].responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '402',
      '404',
      '409',
      '413',
      '429',
      '500',
    ]);
    expect(paths['/api/v1/transcriptions/upload']['post'].responses['413']).toBeDefined();
    const download = paths['/api/v1/transcriptions/{transcriptionId}/download']['get'].responses;
    expect(Object.keys(download['200'].content).sort()).toEqual(['application/x-subrip', 'text/plain', 'text/vtt']);
    expect(download['409'].description).toBe('TRANSCRIPTION_NOT_READY, TRANSCRIPTION_FAILED');
  });
});
