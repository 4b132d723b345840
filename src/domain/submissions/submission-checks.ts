import type { AsrEngine } from '../../ports/asr.js';
import type { TemplatesService } from '../templates/templates.service.js';
import type { SubmissionChecks } from './submissions.service.js';

/**
 * What a new submission is checked against (POST /clips, a monitor's options and its uploads): the
 * workspace's strategies and templates (404 STRATEGY_NOT_FOUND / TEMPLATE_NOT_FOUND) and the languages
 * the speech engine transcribes.
 */
export function submissionChecks(templates: Pick<TemplatesService, 'getStrategy' | 'getTemplate'>, asr: Pick<AsrEngine, 'supportsLanguage'>): SubmissionChecks {
  return {
    checkStrategy: async (ws, id) => void (await templates.getStrategy(ws, id)),
    checkTemplate: async (ws, id) => void (await templates.getTemplate(ws, id)),
    supportsLanguage: (lang) => asr.supportsLanguage(lang),
  };
}
