import type { ChannelEntry } from '../../ports/channel-watcher.js';
import type { SubmissionsService } from '../submissions/submissions.service.js';
import type { VideosService } from '../videos/videos.service.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { MonitorRow, MonitorsRepository } from './monitors.records.js';

export interface MonitorUploadsDeps {
  repo: Pick<MonitorsRepository, 'monitorSubmissionOfVideo'>;
  videos: Pick<VideosService, 'analyzeLink'>;
  submissions: Pick<SubmissionsService, 'create'>;
}

/** What a video monitor does with a new upload of its channel (docs/monitors.md). */
export class MonitorUploads {
  constructor(private readonly d: MonitorUploadsDeps) {}

  /**
   * The upload as an ordinary submission, as POST /clips/info + POST /clips would make it, with the
   * monitor's template, strategy and language; answers its id. An upload the monitor already submitted
   * (the same video) answers that submission instead of a second one.
   */
  async submit(ctx: WorkspaceWithPlan, monitor: MonitorRow, entry: Pick<ChannelEntry, 'url'>): Promise<string> {
    const video = await this.d.videos.analyzeLink(ctx, entry.url);
    const existing = await this.d.repo.monitorSubmissionOfVideo(monitor.id, video.id);
    if (existing) return existing;
    const row = await this.d.submissions.create(
      ctx,
      {
        video_id: video.id,
        ...(monitor.templateId ? { template_id: monitor.templateId } : {}),
        ...(monitor.strategyId ? { strategy_id: monitor.strategyId } : {}),
        source_language: monitor.sourceLanguage,
        ...(monitor.steering ?? {}),
      },
      { monitorId: monitor.id },
    );
    return row.id;
  }
}
