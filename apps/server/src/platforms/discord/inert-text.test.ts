import { describe, expect, it } from 'vitest';
import { inertText } from './inert-text.js';

describe('inertText', () => {
  it('escapes masked links, mentions, @everyone and inline Markdown', () => {
    expect(inertText('[x](https://e.x) <@&123> @everyone **b** _i_ ~~s~~ `c` ||p||')).toBe(
      '\\[x\\]\\(https://e.x\\) \\<@&123\\> @\u200beveryone \\*\\*b\\*\\* \\_i\\_ \\~\\~s\\~\\~ \\`c\\` \\|\\|p\\|\\|',
    );
    expect(inertText('@here and \\*')).toBe('@\u200bhere and \\\\\\*');
  });

  it('keeps block syntax from starting a line', () => {
    expect(inertText('# Big\n> quote')).toBe('\\# Big \\> quote');
    expect(inertText('- item')).toBe('\\- item');
    expect(inertText('1. first')).toBe('1\\. first');
    expect(inertText('-# subtext')).toBe('\\-# subtext');
  });

  it('leaves ordinary names alone', () => {
    expect(inertText('Aurora Skye')).toBe('Aurora Skye');
    expect(inertText('vrclink-log')).toBe('vrclink-log');
  });
});
