/**
 * Text from a user or a platform (a VRChat display name, a Discord name, a role or channel name, a
 * platform's error text) made inert for a Discord message or embed: it reads as the same characters,
 * never as Markdown (bold, a masked link `[x](https://…)`, a heading), a mention pill (`<@&id>`, `<#id>`)
 * or `@everyone`. Used for every such text the bot posts (log posts, command replies); the bot's own
 * words around it stay Markdown. allowed_mentions (none) is set on every post as well, so nothing pings
 * even if a text slipped through.
 */
export function inertText(text: string): string {
  return (
    text
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
