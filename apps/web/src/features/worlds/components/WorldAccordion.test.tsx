import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, stubApi } from '../../../testing/renderApp';
import { WORLDS, WORLDS_PATH, worldFixture, worldsFixture, worldsTabAnswers } from '../testing/worldFixtures';

const id = (n: number) => `3f2b1c4d-0000-4000-8000-00000000010${n}`;
const THREE = [
  worldFixture({ id: id(1), name: 'Hangout Lobby' }),
  worldFixture({ id: id(2), name: 'Dance Floor', locked: false }),
  worldFixture({ id: id(3), name: 'Quiet Room' }),
];

const toggle = (name: string) =>
  screen.getByRole('button', { name: new RegExp(`^${name} (Locked|Unlocked)$`) });
const article = (name: string) => screen.queryByRole('article', { name });

async function renderThree(extra = {}) {
  const fetchMock = stubApi({ ...worldsTabAnswers(undefined, worldsFixture(THREE)), ...extra });
  renderApp(WORLDS_PATH);
  await screen.findByRole('article', { name: 'Hangout Lobby' }, { timeout: 10_000 });
  return fetchMock;
}

// Generous: each test draws up to three full world forms, slow in jsdom on a loaded machine.
describe('the Worlds tab as a list', { timeout: 60_000 }, () => {
  it('lists each world by name, the first open, and opens or closes one with its name', async () => {
    await renderThree();
    // Each world's name is a button in a heading, saying whether it is locked.
    for (const name of ['Hangout Lobby', 'Dance Floor', 'Quiet Room'])
      expect(screen.getByRole('heading', { level: 3, name: new RegExp(`^${name}`) })).toBeTruthy();
    expect(toggle('Hangout Lobby').getAttribute('aria-expanded')).toBe('true');
    expect(toggle('Dance Floor').getAttribute('aria-expanded')).toBe('false');
    expect(article('Dance Floor')).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(1);

    fireEvent.click(toggle('Dance Floor'));
    expect(await screen.findByRole('article', { name: 'Dance Floor' })).toBeTruthy();
    expect(toggle('Dance Floor').getAttribute('aria-expanded')).toBe('true');
    // The open world's settings are a region named by its button.
    expect(screen.getByRole('region', { name: /^Dance Floor/ })).toBeTruthy();
    fireEvent.click(toggle('Hangout Lobby'));
    await waitFor(() => expect(article('Hangout Lobby')).toBeNull());
    expect(article('Dance Floor')).toBeTruthy();
  });

  it('keeps the worlds the person opened when the tab is shown again (Back from World Images, a reload)', async () => {
    await renderThree();
    fireEvent.click(toggle('Quiet Room'));
    fireEvent.click(toggle('Hangout Lobby'));
    await waitFor(() => expect(article('Hangout Lobby')).toBeNull());
    cleanup();
    renderApp(WORLDS_PATH);
    await screen.findByRole('article', { name: 'Quiet Room' }, { timeout: 10_000 });
    expect(article('Hangout Lobby')).toBeNull();
  });

  it('moves between the worlds with the arrow keys, Home and End', async () => {
    await renderThree();
    toggle('Hangout Lobby').focus();
    fireEvent.keyDown(toggle('Hangout Lobby'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(toggle('Dance Floor'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement).toBe(toggle('Quiet Room'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    expect(document.activeElement).toBe(toggle('Hangout Lobby'));
  });

  it('gives every button, switch and text field of every world a name of its own', async () => {
    await renderThree();
    fireEvent.click(toggle('Dance Floor'));
    fireEvent.click(toggle('Quiet Room'));
    await screen.findByRole('article', { name: 'Quiet Room' });
    const main = within(screen.getByRole('main'));
    const names = [
      ...main.getAllByRole('button'),
      ...main.getAllByRole('switch'),
      ...main.getAllByRole('textbox'),
    ].map((el) => el.getAttribute('aria-label') ?? el.textContent);
    expect(main.getAllByRole('switch')).toHaveLength(15);
    expect(main.getAllByRole('textbox', { name: /^World name: / })).toHaveLength(3);
    expect(main.getAllByRole('textbox', { name: /^Custom World Data of / })).toHaveLength(3);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('moves focus to the next world once one is deleted', async () => {
    const remaining = THREE.filter((w) => w.id !== id(2));
    await renderThree({
      [`DELETE ${WORLDS}/${id(2)}`]: { status: 204 },
    });
    fireEvent.click(toggle('Dance Floor'));
    const card = within(await screen.findByRole('article', { name: 'Dance Floor' }));
    const remove = card.getByRole('button', { name: 'Delete Dance Floor' });
    remove.focus();
    fireEvent.click(remove);
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete World' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Delete World' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Dance Floor/ })).toBeNull());
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(remaining.length);
    await waitFor(() => expect(document.activeElement).toBe(toggle('Quiet Room')));
  });
});
