import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import {
  LOBBY_ID,
  WORLDS,
  WORLDS_PATH,
  worldFixture,
  worldsFixture,
  worldsTabAnswers,
} from '../testing/worldFixtures';

const chips = (picker: string) =>
  within(screen.getByRole('group', { name: picker }))
    .queryAllByRole('group')
    .filter((b) => b.getAttribute('aria-roledescription') === 'sortable')
    .map((b) => b.textContent);

// Generous: the tab's code is loaded on demand, slow on a loaded machine.
const lobby = () => screen.findByRole('article', { name: 'Hangout Lobby' }, { timeout: 10_000 });

describe('Worlds tab', () => {
  it('shows each world with its lock, links, switches, role pickers and Custom World Data', async () => {
    stubApi(worldsTabAnswers());
    renderApp(WORLDS_PATH);
    const card = within(await lobby());
    expect(screen.getByLabelText('Number of worlds').textContent).toBe('1');
    expect(card.getByRole('button', { name: 'Unlock world: Hangout Lobby' })).toBeTruthy();
    expect((card.getByLabelText(/^World name/) as HTMLInputElement).value).toBe('Hangout Lobby');
    expect(card.getByRole('link', { name: 'Untrusted URL' }).getAttribute('href')).toBe(
      `https://vrclink.example/data/v2/${LOBBY_ID}`,
    );
    // No mirror configured: Trusted URL is shown disabled, not as a link.
    expect(card.queryByRole('link', { name: 'Trusted URL' })).toBeNull();
    expect(card.getByText('Trusted URL').closest('a')?.hasAttribute('data-disabled')).toBe(true);
    expect(card.getAllByRole('switch')).toHaveLength(5);
    // Each per-world control is named with its world: a page of worlds has one of each per world.
    const checked = (label: string) =>
      (card.getByRole('switch', { name: `${label} for Hangout Lobby` }) as HTMLInputElement).checked;
    expect(checked('Compression')).toBe(false);
    expect(checked('JSON Custom Data Mode')).toBe(false);
    expect(checked('Github Updates Enabled')).toBe(false);
    expect(checked('Include Discord Data')).toBe(true);
    expect(checked('Include Group Data')).toBe(false);
    expect(chips('Discord Encode Roles')).toEqual(['Admin', 'Moderator']);
    expect(chips('Discord Always Encode Roles')).toEqual(['Deleted role']);
    expect(chips('Group Encode Roles')).toEqual(['Owner']);
    expect(chips('Group Always Encode Roles')).toEqual([]);
    const data = card.getByRole('textbox', { name: /^Custom World Data/ }) as HTMLTextAreaElement;
    expect(data.value).toBe('Welcome!');
    expect(data.rows).toBeGreaterThanOrEqual(30);
    for (const name of ['Preview Hangout Lobby', 'Images of Hangout Lobby', 'Delete Hangout Lobby'])
      expect(card.getByRole('button', { name })).toBeTruthy();
    expect(card.getByRole('button', { name: 'Images of Hangout Lobby' }).textContent).toBe('Images');
    expect((card.getByRole('button', { name: /^Delete / }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a loader, then the empty state', async () => {
    stubApi(worldsTabAnswers(undefined, worldsFixture([])));
    renderApp(WORLDS_PATH);
    expect(await screen.findByLabelText('Loading worlds')).toBeTruthy();
    expect(await screen.findByText('No worlds yet')).toBeTruthy();
    expect(screen.getByLabelText('Number of worlds').textContent).toBe('0');
  });

  it("shows the server's message when the worlds cannot be loaded", async () => {
    stubApi({
      ...worldsTabAnswers(),
      [`GET ${WORLDS}`]: {
        status: 403,
        body: { message: 'You need the ViewWorlds permission in this server.' },
      },
    });
    renderApp(WORLDS_PATH);
    expect(await screen.findByText('Failed to load worlds.', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('You need the ViewWorlds permission in this server.')).toBeTruthy();
  });

  it('shows everything read-only with ViewWorlds only: no Create new, Preview or Delete', async () => {
    const fetchMock = stubApi(worldsTabAnswers(['ViewWorlds']));
    renderApp(WORLDS_PATH);
    const card = within(await lobby());
    expect(screen.queryByRole('button', { name: 'Create new' })).toBeNull();
    expect(card.queryByRole('button', { name: /^Preview / })).toBeNull();
    expect(card.queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(card.queryByRole('button', { name: /^Images / })).toBeNull();
    // The world's entry in the list is its heading (an h3 around the button that opens it).
    expect(screen.getByRole('heading', { name: /^Hangout Lobby/, level: 3 })).toBeTruthy();
    expect((card.getByRole('button', { name: 'Locked: Hangout Lobby' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    for (const s of card.getAllByRole('switch')) expect((s as HTMLInputElement).disabled).toBe(true);
    expect((card.getByRole('textbox', { name: /^Custom World Data/ }) as HTMLTextAreaElement).readOnly).toBe(
      true,
    );
    fireEvent.click(card.getByRole('switch', { name: /^Include Group Data for / }));
    expect(callsTo(fetchMock, 'POST', `${WORLDS}/${LOBBY_ID}`)).toHaveLength(0);
  });

  it('offers Preview with WorldPreview and Images with ViewImages', async () => {
    stubApi(worldsTabAnswers(['ViewWorlds', 'WorldPreview', 'ViewImages']));
    renderApp(WORLDS_PATH);
    const card = within(await lobby());
    expect(card.getByRole('button', { name: /^Preview / })).toBeTruthy();
    expect(card.getByRole('button', { name: /^Images / })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create new' })).toBeNull();
  });

  it('does not ask for the worlds without ViewWorlds', async () => {
    const fetchMock = stubApi(worldsTabAnswers(['ViewGuild']));
    renderApp(WORLDS_PATH);
    expect(await screen.findByText(/You need the ViewWorlds permission/)).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', WORLDS)).toHaveLength(0);
  });

  it('adds a world with Create new', async () => {
    const created = worldFixture({ id: '3f2b1c4d-0000-4000-8000-000000000002', name: 'World 2' });
    const fetchMock = stubApi({
      ...worldsTabAnswers(),
      [`PUT ${WORLDS}`]: { body: worldsFixture([worldFixture(), created]) },
    });
    renderApp(WORLDS_PATH);
    await lobby();
    fireEvent.click(screen.getByRole('button', { name: 'Create new' }));
    const card = await screen.findByRole('article', { name: 'World 2' });
    expect(screen.getByLabelText('Number of worlds').textContent).toBe('2');
    // Focus moves to the new world (the button was disabled while it worked) and a live region says so.
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByLabelText(/^World name/)));
    await waitFor(() => expect(toastTexts()).toContain('World “World 2” created.'));
    expect(callsTo(fetchMock, 'PUT', WORLDS)).toHaveLength(1);
  });

  it("shows 'Failed to create world' with the server's message", async () => {
    stubApi({
      ...worldsTabAnswers(),
      [`PUT ${WORLDS}`]: { status: 409, body: { message: 'A server can have at most 50 worlds.' } },
    });
    renderApp(WORLDS_PATH);
    await lobby();
    fireEvent.click(screen.getByRole('button', { name: 'Create new' }));
    await waitFor(() =>
      expect(toastTexts()).toContain('Failed to create world: A server can have at most 50 worlds.'),
    );
    expect(screen.getAllByRole('article')).toHaveLength(1);
  });

  // The World Images page loads lazily: on a loaded CI machine its first import (Vite transforms it on demand) took
  // over 10 s, so the wait for its heading is long, and the test's own limit longer.
  it('opens the World Images screen from Images, and goes Back', { timeout: 60_000 }, async () => {
    stubApi(worldsTabAnswers());
    const { router } = renderApp(WORLDS_PATH);
    fireEvent.click(within(await lobby()).getByRole('button', { name: /^Images of / }));
    expect(await screen.findByRole('heading', { name: 'World Images' }, { timeout: 40_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`${WORLDS_PATH}/images/${LOBBY_ID}`);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await lobby()).toBeTruthy();
    expect(router.state.location.pathname).toBe(WORLDS_PATH);
  });
});
