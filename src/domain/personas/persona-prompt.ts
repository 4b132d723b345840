import { TRAITS, type TraitKey } from './persona-catalog.js';

/**
 * What hosted generative engines are asked (pure): the chips as a sentence, the note appended, and for
 * a swap which part of the person to replace. Labels come from the catalog, so a prompt always says
 * exactly the options chosen.
 */

const label = (key: TraitKey, chips: Record<string, string>) =>
  (TRAITS[key].options.find((o) => o.id === chips[key])?.label ?? TRAITS[key].default).toLowerCase().replace(/\s*\(.*\)/, '');

export function portraitPrompt(chips: Record<string, string>, note: string | null, opts: { fromFacePhotos?: boolean } = {}): string {
  const l = (k: TraitKey) => label(k, chips);
  const parts = [
    opts.fromFacePhotos
      ? 'Photorealistic head-and-shoulders portrait photo of the person in the reference photos, keeping their face and identity'
      : `Photorealistic head-and-shoulders portrait photo of a ${l('gender')} ${l('age')} person from ${l('origin')}`,
    `${l('vibe')} expression`,
  ];
  if (!opts.fromFacePhotos) {
    parts.push(
      `${l('skin')} skin`,
      `${l('eyes')} eyes`,
      `${l('hair_color')} hair, ${l('hair_style')} style`,
      chips.facial_hair && chips.facial_hair !== 'none' ? l('facial_hair') : 'no facial hair',
      `${l('face')} face`,
      `${l('body')} build`,
      `wearing a ${l('outfit')}`,
    );
    if (chips.accessory && chips.accessory !== 'none') parts.push(`with ${l('accessory')}`);
    if (chips.mark && chips.mark !== 'none') parts.push(`with ${l('mark')}`);
  }
  parts.push('plain studio background, natural light');
  const text = `${parts.join(', ')}.`;
  return note ? `${text} ${note}` : text;
}

export function swapPrompt(replace: 'person' | 'head'): string {
  return replace === 'head'
    ? 'Replace the head and hair of the main person in the video with the person in the reference image; keep the body, outfit, scene, camera, motion and sound.'
    : 'Replace the main person in the video with the person in the reference image; keep the scene, camera, motion and sound.';
}
