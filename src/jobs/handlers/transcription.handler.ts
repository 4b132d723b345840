import { attemptOf } from '../../domain/jobs/retry.js';
import type { TranscriptionProcessor } from '../../domain/transcriptions/transcriptions.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** transcription.process: transcribes one transcription; a retried job starts again from the media. */
export function transcriptionHandler(processor: TranscriptionProcessor): JobHandler<'transcription.process'> {
  return async (payload, ctx) => {
    if (typeof payload?.transcriptionId !== 'string') return;
    await processor.run(payload.transcriptionId, attemptOf('transcription.process', ctx));
  };
}
