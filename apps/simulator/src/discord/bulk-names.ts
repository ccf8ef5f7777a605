/**
 * Made-up but realistic Discord names for bulk seeding: usernames (lowercase a-z0-9_., 2–32) built
 * from words, syllables and first names, some with digits; display names and nicknames derived
 * from them. The spread matters: prefix and infix searches should hit many, few or no members the
 * way they do on a real large server.
 */

export type Random = () => number;

/** A small fast deterministic PRNG (mulberry32), so the same seed gives the same people. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = (
  'sleepy neon quiet lazy happy silent cosmic tiny fuzzy wild lucky shadow crimson golden silver ' +
  'frosty sunny misty stormy velvet electric mellow cozy spicy salty sweet dizzy grumpy brave shy ' +
  'sneaky mighty gentle rusty pixel retro cyber lunar solar astral feral noble humble chill mystic ' +
  'hollow scarlet azure amber jade ivory obsidian midnight dusky bright lost wandering dreamy ' +
  'toasty crispy sparkly glitchy moody sassy bouncy'
).split(' ');

const NOUNS = (
  'fox wolf cat bunny moth owl raven otter panda tiger dragon gecko lynx bear deer crow koi shark ' +
  'whale frog toad bat hawk falcon kitsune neko pup kitten fawn beetle wasp lotus maple cedar willow ' +
  'fern moss ember ash cloud storm rain snow frost star moon sun comet nova nebula orbit pixel byte ' +
  'glitch circuit ghost phantom spirit wisp knight rogue ranger bard mage witch paladin pilot ' +
  'sailor drifter nomad wanderer dreamer gamer raccoon ferret hamster badger axolotl jellyfish ' +
  'muffin cookie waffle noodle dumpling mochi tofu boba taco pickle biscuit pudding'
).split(' ');

const FIRST_NAMES = (
  'alex sam max leo mia noah emma luca nina omar yuki hana sora riku aki kenji ivan olga lena finn ' +
  'zoe eli ava jay kai ray ruby theo ben lily ryu mika sasha jonas elias marta pablo lucia diego ' +
  'chloe hugo ines jules louis sofia mateo aria liam ella owen ezra iris milo nora hazel felix ' +
  'jasper rosa tomas anya dmitri yara amir layla tariq hiro mei jun min seo jin haru ren aoi kaito'
).split(' ');

const SYLLABLES = (
  'ka mi ra lu ze no ai ri sa to ve ny ha yu el ki mo shi ta ren fa zo li ko ma na se vi da jo ' +
  'xi be ca de fi ga ho ja ku ly me ne pa qi ro su ti va wa xe ya zu'
).split(' ');

const ENDINGS = 'ra ko mi ki na to ru ya shi ne ro ka ri za lo n x ris lyn ael dor ven mon ette ia ion'.split(
  ' ',
);

const GAMER_SUFFIXES = ['vr', 'tv', '_ttv', 'chan', 'kun', 'uwu', 'xd', '_irl', 'yt', 'gg'];
const PREFIXES = ['its', 'xx', 'mr', 'lil', 'the', 'not', 'real', 'just', 'im'];
const JAPANESE = ['ゆき', 'さくら', 'はると', 'そら', 'ひかり', 'れん', 'あおい', 'みお', 'かいと', 'つばさ'];
const DECOR = ['✨', '🌙', '🦊', '🐾', '⭐', '🌸', '💜', '🎧'];
const PRONOUNS = ['he/him', 'she/her', 'they/them', 'any/all'];
const TAGS = ['VR', 'EU', 'NA', 'JP', 'PC', 'Quest', 'AFK', 'DJ'];

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const cap = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const sep = (r: Random) => pick(r, ['', '', '_', '.']);
const digits = (r: Random) => {
  const x = r();
  // Years, small counters and long numbers, as people pick them.
  if (x < 0.3) return String(1985 + Math.floor(r() * 25));
  if (x < 0.7) return String(Math.floor(r() * 100)).padStart(2, '0');
  return String(Math.floor(r() * 10_000));
};
const madeUp = (r: Random) => {
  const n = r() < 0.6 ? 1 : 2;
  let word = pick(r, SYLLABLES);
  for (let i = 0; i < n; i++) word += pick(r, SYLLABLES);
  return word + (r() < 0.5 ? pick(r, ENDINGS) : '');
};

/** One person: the words the username is made of, and the username. */
export interface NameParts {
  words: string[];
  username: string;
}

/** A username candidate (may collide; the caller makes it unique). */
export function usernameParts(r: Random): NameParts {
  const x = r();
  let words: string[];
  let username: string;
  if (x < 0.22) {
    words = [pick(r, ADJECTIVES), pick(r, NOUNS)];
    username = words.join(sep(r));
  } else if (x < 0.4) {
    words = [madeUp(r)];
    username = words[0];
  } else if (x < 0.55) {
    words = [pick(r, FIRST_NAMES)];
    username = `${words[0]}${pick(r, ['', '_', '.'])}${digits(r)}`;
  } else if (x < 0.67) {
    words = [pick(r, FIRST_NAMES), pick(r, NOUNS)];
    username = words.join(sep(r));
  } else if (x < 0.77) {
    words = [pick(r, NOUNS)];
    username = `${words[0]}${digits(r)}`;
  } else if (x < 0.85) {
    words = [pick(r, FIRST_NAMES)];
    username = `${pick(r, PREFIXES)}${words[0]}${r() < 0.5 ? pick(r, GAMER_SUFFIXES) : ''}`;
  } else if (x < 0.93) {
    words = [madeUp(r)];
    username = `${words[0]}${pick(r, GAMER_SUFFIXES)}`;
  } else {
    words = [pick(r, ADJECTIVES), pick(r, FIRST_NAMES)];
    username = words.join('');
  }
  return { words, username: username.slice(0, 32) };
}

/** Discord's display name: often the words capitalised, sometimes decorated, sometimes unset. */
export function globalNameFor(r: Random, parts: NameParts): string | null {
  const x = r();
  if (x < 0.2) return null;
  if (x < 0.7) return parts.words.map(cap).join(' ');
  if (x < 0.8) return cap(parts.words[parts.words.length - 1]);
  if (x < 0.88) return `${cap(parts.words[0])} ${pick(r, DECOR)}`;
  if (x < 0.94) return cap(pick(r, FIRST_NAMES));
  return pick(r, JAPANESE);
}

/** A guild nickname for about one member in eight. */
export function nickFor(r: Random, display: string): string | null {
  const x = r();
  if (x >= 0.12) return null;
  const nick =
    x < 0.03
      ? `[${pick(r, TAGS)}] ${display}`
      : x < 0.06
        ? `${display} | ${pick(r, TAGS)}`
        : x < 0.09
          ? `${display} (${pick(r, PRONOUNS)})`
          : cap(pick(r, FIRST_NAMES));
  return nick.slice(0, 32);
}

/** 32 hex characters, like Discord's avatar hashes. */
export function hexHash(r: Random): string {
  let out = '';
  for (let i = 0; i < 4; i++)
    out += Math.floor(r() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return out;
}
