import { createAvatar } from '@dicebear/core';
import { adventurer, avataaars, bigSmile, bottts, funEmoji, lorelei, micah, pixelArt } from '@dicebear/collection';
import { AVATAR_PICKER_OPTIONS } from '../../../contract/constants';

// SPEC §9 avatar picker: options drawn from 8 styles and 5 background colours. Avatars are drawn
// here with DiceBear, so no image is fetched from or sent to an avatar service (docs/settings.md).
export const AVATAR_STYLES = {
  adventurer: { label: 'Adventurer', style: adventurer },
  avataaars: { label: 'Avataaars', style: avataaars },
  bigSmile: { label: 'Big smile', style: bigSmile },
  bottts: { label: 'Bottts', style: bottts },
  funEmoji: { label: 'Fun emoji', style: funEmoji },
  lorelei: { label: 'Lorelei', style: lorelei },
  micah: { label: 'Micah', style: micah },
  pixelArt: { label: 'Pixel art', style: pixelArt },
} as const;
export type AvatarStyleName = keyof typeof AVATAR_STYLES;
export const AVATAR_STYLE_NAMES = Object.keys(AVATAR_STYLES) as AvatarStyleName[];

/** Pastel backgrounds that read well on the dark theme (hex without '#', as DiceBear takes them). */
export const AVATAR_BACKGROUNDS = ['b6e3f4', 'c0aede', 'd1d4f9', 'ffd5dc', 'ffdfbf'] as const;
export const AVATAR_BACKGROUND_NAMES: Record<(typeof AVATAR_BACKGROUNDS)[number], string> = {
  b6e3f4: 'sky',
  c0aede: 'lilac',
  d1d4f9: 'periwinkle',
  ffd5dc: 'pink',
  ffdfbf: 'peach',
};

/** SPEC §3 Avatar choice. */
export interface AvatarChoice {
  id: string;
  url: string;
  style: AvatarStyleName;
  seed: string;
  backgroundColor: string;
}

export function avatarDataUrl(style: AvatarStyleName, seed: string, backgroundColor: string): string {
  return createAvatar(AVATAR_STYLES[style].style as Parameters<typeof createAvatar>[0], {
    seed,
    backgroundColor: [backgroundColor],
    size: 96,
  }).toDataUri();
}

export function describeAvatar(choice: Pick<AvatarChoice, 'style' | 'backgroundColor'>): string {
  // A colour outside the palette (an older choice) is named by its code.
  const names: Partial<Record<string, string>> = AVATAR_BACKGROUND_NAMES;
  const background = names[choice.backgroundColor] ?? choice.backgroundColor;
  return `${AVATAR_STYLES[choice.style].label} avatar on ${background}`;
}

/**
 * Six options, each a different style × colour pair of the 40, with fresh seeds. `random` is
 * injectable so tests can draw reproducibly.
 */
export function drawAvatarChoices(random: () => number = Math.random, count = AVATAR_PICKER_OPTIONS): AvatarChoice[] {
  const pairs = AVATAR_STYLE_NAMES.flatMap((style) =>
    AVATAR_BACKGROUNDS.map((backgroundColor) => ({ style, backgroundColor })),
  );
  const choices: AvatarChoice[] = [];
  while (choices.length < count && pairs.length > 0) {
    const [pair] = pairs.splice(Math.floor(random() * pairs.length), 1);
    const seed = Math.floor(random() * 2 ** 32).toString(36);
    choices.push({
      id: `${pair.style}-${pair.backgroundColor}-${seed}`,
      url: avatarDataUrl(pair.style, seed, pair.backgroundColor),
      style: pair.style,
      seed,
      backgroundColor: pair.backgroundColor,
    });
  }
  return choices;
}
