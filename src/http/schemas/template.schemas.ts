import { KeywordsSchema, PromptSchema } from './steering.schemas.js';
import { Type } from '@sinclair/typebox';
import { IsoDate } from './common.js';
import { PageQuery, PaginationSchema } from './pagination.schemas.js';
import { CAPTION_FONT_FAMILIES } from '../../domain/edits/caption-styles.js';

/**
 * Templates and strategies as the API shows them (docs/templates.md). The response schemas describe
 * the objects for the OpenAPI document; custom configs are validated by the domain
 * (src/domain/templates/templates.rules.ts), which reports `config.…` fields.
 */

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '`#RRGGBB`.' });
const Position = Type.Union([Type.Literal('bottom'), Type.Literal('middle'), Type.Literal('top')]);
const Box = Type.Union([Type.Object({ color: Color, opacity: Type.Number({ minimum: 0, maximum: 1 }) }), Type.Null()], {
  description: 'An opaque box behind each line instead of an outline, or null.',
});
const Font = Type.String({ description: `One of ${CAPTION_FONT_FAMILIES.map((f) => `\`${f}\``).join(', ')}.` });

export const CaptionStyleSchema = Type.Object(
  {
    font_family: Font,
    font_size: Type.Number({ minimum: 16, maximum: 240, description: 'Pixels at 1080p (scaled for 720p).' }),
    primary_color: Color,
    highlight_color: Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Colour of the spoken word, `#RRGGBB`.' }),
    highlight_mode: Type.Union([Type.Literal('word'), Type.Literal('fill')], {
      description: '`word`: only the spoken word is highlighted; `fill`: every word up to it (karaoke).',
    }),
    pop_scale: Type.Number({ minimum: 100, maximum: 160, description: 'Size of the spoken word in percent.' }),
    outline_color: Color,
    outline_width: Type.Number({ minimum: 0, maximum: 20 }),
    shadow: Type.Number({ minimum: 0, maximum: 20 }),
    box: Box,
    position: Position,
    margin: Type.Number({ minimum: 0, maximum: 45, description: 'Percent of the output height from the edge.' }),
    words_per_line: Type.Integer({ minimum: 1, maximum: 12 }),
    max_lines: Type.Integer({ minimum: 1, maximum: 4 }),
    uppercase: Type.Boolean(),
  },
  { $id: 'CaptionStyle' },
);

export const TitleStyleSchema = Type.Object(
  {
    font_family: Font,
    font_size: Type.Number({ minimum: 16, maximum: 240 }),
    color: Color,
    outline_color: Color,
    outline_width: Type.Number({ minimum: 0, maximum: 20 }),
    box: Box,
    position: Position,
    margin: Type.Number({ minimum: 0, maximum: 45 }),
    uppercase: Type.Boolean(),
    seconds: Type.Union([Type.Number({ minimum: 0.1 }), Type.Null()], { description: 'Seconds the title stays; null for the whole clip.' }),
  },
  { $id: 'TitleStyle' },
);

/** How the source is framed (edits and template layouts). */
export const REFRAME_DESCRIPTION =
  '`auto` chooses per shot (scene cuts): a screen or slide → `screen`, two faces → `split`, one face → `speaker`, nothing → `center`; ' +
  '`speaker` follows the detected speaker; `split` stacks two faces, one per half of the frame, each followed (`speaker` when fewer than two faces are seen); ' +
  '`screen` shows a screen or slide at the frame’s width with the speaker’s face cropped below it (on a blurred fill without a face); ' +
  '`center` crops the middle; `fit` shows the whole frame over a blurred copy.';

export const ReframeSchema = Type.Union(
  [Type.Literal('auto'), Type.Literal('speaker'), Type.Literal('split'), Type.Literal('screen'), Type.Literal('center'), Type.Literal('fit')],
  {
    description: REFRAME_DESCRIPTION,
  },
);

export const TemplateLayoutSchema = Type.Object(
  {
    aspect: Type.Union([Type.Literal('9:16'), Type.Literal('1:1'), Type.Literal('16:9')]),
    reframe: ReframeSchema,
    resolution: Type.Union([Type.Literal('720p'), Type.Literal('1080p')]),
    two_faces: Type.Union([Type.Literal('speaker'), Type.Literal('split')], {
      description:
        'What `reframe: auto` gives a shot of two faces talking in turns: `speaker` (default) follows whoever is talking (mouth movement matched to the voice heard), `split` stacks both faces. Two faces without a voice heard, or one doing all the talking, are `split` either way.',
    }),
    zoom: Type.Union([Type.Literal('none'), Type.Literal('subtle')], {
      description:
        'Punch-in on the clips made with the template: `subtle` eases a 1.12× zoom in on emphasised words (louder and higher than the speech around them), at most one every 4 s and none within 1 s of a layout change; `none` adds none. Default `none`.',
    }),
  },
  { $id: 'TemplateLayout' },
);

export const TemplateConfigSchema = Type.Object(
  { captions: CaptionStyleSchema, title: TitleStyleSchema, layout: TemplateLayoutSchema },
  { $id: 'TemplateConfig' },
);

export const StrategyConfigSchema = Type.Object(
  {
    min_seconds: Type.Number({ minimum: 5, maximum: 180, description: 'Shortest clip, seconds.' }),
    max_seconds: Type.Number({ minimum: 5, maximum: 180, description: 'Longest clip, seconds (> min_seconds).' }),
    max_clips: Type.Integer({ minimum: 1, maximum: 30, description: 'Most clips per submission.' }),
    prompt: Type.Optional(PromptSchema),
    keywords: Type.Optional(KeywordsSchema),
  },
  { $id: 'StrategyConfig' },
);

const common = {
  id: Type.String({ description: 'Built-ins: `tpl_<name>` and `str_short`, `str_default`, `str_long`. Custom: `tpl_…` or `str_…`.' }),
  name: Type.String(),
  builtin: Type.Boolean({ description: 'Built-ins are shared by every workspace and cannot be deleted.' }),
  created_at: IsoDate,
};

export const TemplateSchema = Type.Object(
  { id: common.id, kind: Type.Literal('template'), name: common.name, builtin: common.builtin, created_at: common.created_at, config: TemplateConfigSchema },
  { $id: 'Template', description: 'A caption template: how clips look. Use its id as `template_id`.' },
);

export const StrategySchema = Type.Object(
  { id: common.id, kind: Type.Literal('strategy'), name: common.name, builtin: common.builtin, created_at: common.created_at, config: StrategyConfigSchema },
  { $id: 'Strategy', description: 'A clipping strategy: how clips are picked. Use its id as `strategy_id`.' },
);

export const TemplateOrStrategySchema = Type.Union([TemplateSchema, StrategySchema]);

export const TemplateListSchema = Type.Object(
  {
    templates: Type.Array(TemplateOrStrategySchema, { description: 'Built-ins first (fixed order), then the workspace’s own, newest first.' }),
    pagination: PaginationSchema,
  },
  { $id: 'TemplateList' },
);

export const TemplateKindSchema = Type.Union([Type.Literal('template'), Type.Literal('strategy')]);

export const TemplateListQuery = Type.Composite([PageQuery, Type.Object({ kind: Type.Optional(TemplateKindSchema) })]);

export const CreateTemplateBody = Type.Object(
  {
    kind: TemplateKindSchema,
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    config: Type.Object({}, { additionalProperties: true, description: 'See docs/templates.md; absent fields take the defaults.' }),
  },
  { additionalProperties: false },
);
