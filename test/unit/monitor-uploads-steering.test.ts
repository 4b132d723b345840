import { describe, expect, it } from 'vitest';
import { MonitorUploads } from '../../src/domain/monitors/monitor-uploads.js';
import type { MonitorRow } from '../../src/domain/monitors/monitors.records.js';
import type { SubmissionInput } from '../../src/domain/submissions/submissions.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.records.js';

describe('a video monitor’s upload', () => {
  it('is submitted with the monitor’s prompt, keywords and clip length (and without them when it has none)', async () => {
    const seen: SubmissionInput[] = [];
    const uploads = new MonitorUploads({
      repo: { monitorSubmissionOfVideo: async () => undefined },
      videos: { analyzeLink: async () => ({ id: 'vid_1' }) as never },
      submissions: {
        create: async (_ctx, input) => {
          seen.push(input);
          return { id: `sub_${seen.length}` } as never;
        },
      },
    });
    const monitor = { id: 'mon_1', templateId: null, strategyId: 'str_short', sourceLanguage: 'en' } as MonitorRow;
    const ctx = {} as WorkspaceWithPlan;
    await uploads.submit(
      ctx,
      { ...monitor, steering: { prompt: 'pricing', keywords: ['price'], clip_length: { min: 20, max: 45 } } },
      { url: 'https://x.test/v' },
    );
    await uploads.submit(ctx, { ...monitor, steering: null }, { url: 'https://x.test/w' });
    expect(seen).toEqual([
      { video_id: 'vid_1', strategy_id: 'str_short', source_language: 'en', prompt: 'pricing', keywords: ['price'], clip_length: { min: 20, max: 45 } },
      { video_id: 'vid_1', strategy_id: 'str_short', source_language: 'en' },
    ]);
  });
});
