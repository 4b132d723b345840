import { describe, expect, it } from 'vitest';
import { Cutroom } from '../../sdk/src/index.js';

/** The SDK's edit helpers: each one call to its path, answering the typed data. */

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function scripted(answers: Response[]) {
  const sent: Array<{ method: string; url: string; body: string }> = [];
  const cutroom = new Cutroom({
    baseUrl: 'https://cutroom.test',
    apiKey: 'key_test.secret',
    fetch: async (request) => {
      sent.push({ method: request.method, url: request.url, body: await request.text() });
      return answers.shift()!;
    },
  });
  return { cutroom, sent };
}

const edit = {
  id: 'edit_2',
  parent_edit_id: 'edit_1',
  video_id: 'vid_1',
  clip_id: 'clip_1',
  created_at: '2026-01-01T00:00:00.000Z',
  duration: 3,
  aspect_ratio: '9:16',
  reframe: 'speaker',
  zoom: 1,
  template_id: null,
  segments: [{ start: 1, end: 4 }],
  words: [],
  captions_enabled: true,
  title: null,
};

describe('Cutroom edits helpers', () => {
  it('getEdit, deriveEdit, listEditVersions, setClipReview', async () => {
    const { cutroom, sent } = scripted([
      json(200, edit),
      json(201, edit),
      json(200, { edits: [edit], pagination: { current_page: 2, total_pages: 2, total_count: 21, has_next_page: false } }),
      json(200, { id: 'clip_1', review: 'kept' }),
    ]);
    expect((await cutroom.getEdit('edit_2')).id).toBe('edit_2');
    expect((await cutroom.deriveEdit({ base_edit_id: 'edit_1', trim: { start: 1, end: 4 } })).parent_edit_id).toBe('edit_1');
    expect((await cutroom.listEditVersions('edit_2', { page: 2 })).edits).toHaveLength(1);
    expect((await cutroom.setClipReview('vid_1', 'sub_1', 'clip_1', 'kept')).review).toBe('kept');
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET https://cutroom.test/api/v1/edits/edit_2',
      'POST https://cutroom.test/api/v1/edits',
      'GET https://cutroom.test/api/v1/edits/edit_2/versions?page=2',
      'PATCH https://cutroom.test/api/v1/clips/vid_1/submissions/sub_1/clips/clip_1',
    ]);
    expect(JSON.parse(sent[1].body)).toEqual({ base_edit_id: 'edit_1', trim: { start: 1, end: 4 } });
    expect(JSON.parse(sent[3].body)).toEqual({ review: 'kept' });
  });
});
