import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { initialOf, NameAvatar } from './NameAvatar';

const show = (ui: React.ReactNode) => render(<MantineProvider theme={theme}>{ui}</MantineProvider>);
const root = (container: HTMLElement) => container.querySelector<HTMLElement>('.mantine-Avatar-root')!;

describe('NameAvatar', () => {
  it('shows the initial of the name, upper-cased, skipping marks and punctuation', () => {
    expect(initialOf('glitchwolf')).toBe('G');
    expect(initialOf('  _ñandú')).toBe('Ñ');
    expect(initialOf('42 Club')).toBe('4');
    expect(initialOf('…')).toBe('?');
  });

  it('is round with the initial when there is no picture, and hidden beside its name', () => {
    const { container } = show(<NameAvatar name="glitchwolf" src={null} />);
    const avatar = root(container);
    expect(avatar.textContent).toBe('G');
    expect(avatar.getAttribute('style')).toContain('--avatar-radius: var(--mantine-radius-xl)');
    expect(avatar.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows the picture when there is one, without saying the name twice', () => {
    const { container } = show(<NameAvatar name="glitchwolf" src="https://cdn.example/a.png" />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://cdn.example/a.png');
    expect(img.getAttribute('alt')).toBe('');
    expect(root(container).getAttribute('style')).toContain('--avatar-radius: var(--mantine-radius-xl)');
  });

  it('is an image named by the name when shown without it', () => {
    show(<NameAvatar name="glitchwolf" src={null} labelled />);
    expect(screen.getByRole('img', { name: 'glitchwolf' }).textContent).toBe('G');
  });
});
