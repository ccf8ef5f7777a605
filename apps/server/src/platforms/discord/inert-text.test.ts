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

  it('removes bidirectional controls and zero-width characters, so a name cannot reverse or hide the line', () => {
    // A U+202E nickname would show the rest of the log line reversed.
    expect(inertText('Mallory\u202E gnikniL')).toBe('Mallory gnikniL');
    expect(inertText('\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h')).toBe('abcdefgh');
    expect(inertText('z\u200Bw\u200Cs\u200Dj\u200Em\u200Fr\u2060x\uFEFFy\u061Cq')).toBe('zwsjmrxyq');
    // A zero-width character inside @everyone is removed, then the mention is neutralised as usual.
    expect(inertText('@\u200Beveryone @e\u2060veryone')).toBe('@\u200beveryone @\u200beveryone');
  });
});
