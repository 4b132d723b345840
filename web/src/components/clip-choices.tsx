import { ok } from '@cutroom/sdk/browser';
import { useLoad } from '../hooks';

export type ClipLanguage = 'auto' | 'en' | 'pt';

/** The workspace's caption templates and clipping strategies (GET /templates), for the forms that start clipping. */
export function useClipChoices() {
  const choices = useLoad((c, signal) => ok(c.api.GET('/api/v1/templates', { params: { query: { limit: 100 } }, signal })), []);
  return {
    error: choices.error,
    templates: choices.data?.templates.filter((t) => t.kind === 'template') ?? [],
    strategies: choices.data?.templates.filter((t) => t.kind === 'strategy') ?? [],
  };
}

interface Props {
  /** Prefixes the fields' ids (two forms on one page stay apart). */
  idPrefix?: string;
  choices: ReturnType<typeof useClipChoices>;
  templateId: string;
  strategyId: string;
  language: ClipLanguage;
  onTemplate(id: string): void;
  onStrategy(id: string): void;
  onLanguage(language: ClipLanguage): void;
}

/** **Template**, **Clip lengths** and **Language** in a row, as New clips and a new monitor ask them. */
export function ClipChoiceFields({ idPrefix = '', choices, templateId, strategyId, language, onTemplate, onStrategy, onLanguage }: Props) {
  return (
    <div class="row">
      <div class="field">
        <label for={`${idPrefix}template`}>Template</label>
        <select id={`${idPrefix}template`} value={templateId} onChange={(e) => onTemplate(e.currentTarget.value)}>
          <option value="">Default</option>
          {choices.templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${idPrefix}strategy`}>Clip lengths</label>
        <select id={`${idPrefix}strategy`} value={strategyId} onChange={(e) => onStrategy(e.currentTarget.value)}>
          <option value="">Default</option>
          {choices.strategies.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${idPrefix}language`}>Language</label>
        <select id={`${idPrefix}language`} value={language} onChange={(e) => onLanguage(e.currentTarget.value as ClipLanguage)}>
          <option value="auto">Detect it</option>
          <option value="en">English</option>
          <option value="pt">Portuguese</option>
        </select>
      </div>
    </div>
  );
}
