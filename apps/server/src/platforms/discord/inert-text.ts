/**
 * Text from a user or a platform (a VRChat display name, a Discord name, a role or channel name, a
 * platform's error text) made inert for a Discord message or embed: it reads as the same characters,
 * never as Markdown (bold, a masked link `[x](https://…)`, a heading), a mention pill (`<@&id>`, `<#id>`)
 * or `@everyone`. Used for every such text the bot posts (log posts, command replies); the bot's own
 * words around it stay Markdown. allowed_mentions (none) is set on every post as well, so nothing pings
 * even if a text slipped through.
 *
 * Bidirectional controls and invisible characters are removed first: a U+202E in a nickname would
 * otherwise reverse the rest of the bot's line (the staff would read another name or action), and a
 * zero-width character could hide a `@everyone` or split a word so it no longer matches a search.
 */
/**
 * Embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), zero-width space, joiners and
 * directional marks (U+200B–U+200F), the Arabic letter mark (U+061C), word joiner (U+2060) and the
 * byte-order mark / zero-width no-break space (U+FEFF).
 */
const INVISIBLE_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C\u2060\uFEFF]/g;

export function inertText(text: string): string {
  return (
    text
      .replace(INVISIBLE_CONTROLS, '')
      // One line: block syntax (headings, lists, quotes) only starts a line.
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      // Inline Markdown, masked links, and `<` which opens mentions, channels, emoji and timestamps.
      .replace(/[\\*_~`|<>[\]()]/g, '\\$&')
      // Block syntax at the start (a heading, a list item, subtext), in case the text starts a line.
      .replace(/^(\s*)([#-])/, '$1\\$2')
      .replace(/^(\s*\d+)\./, '$1\\.')
      // A zero-width space keeps @everyone and @here from being read as mentions.
      .replace(/@(everyone|here)/gi, '@\u200b$1')
  );
}
