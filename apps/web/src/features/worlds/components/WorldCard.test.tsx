import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { sentBodies as bodies, renderWorldCard as setup } from '../testing/renderWorlds';
import { LOBBY_ID, WORLDS, worldFixture, worldsFixture } from '../testing/worldFixtures';

const WORLD = `${WORLDS}/${LOBBY_ID}`;

const switchOf = (card: ReturnType<typeof within>, name: string) =>
  card.getByRole('switch', { name: `${name} for Hangout Lobby` }) as HTMLInputElement;

describe('world settings', () => {
  it('links the Trusted URL when a GitHub Pages mirror is configured', async () => {
    const trustedUrl = `https://owner.github.io/repo/worlds/${LOBBY_ID}`;
    const { card } = await setup(worldFixture({ trustedUrl }));
    expect(card.getByRole('link', { name: 'Trusted URL' }).getAttribute('href')).toBe(trustedUrl);
  });

  it('says why the Trusted URL answers nothing while Github Updates are off', async () => {
    const trustedUrl = `https://owner.github.io/repo/worlds/${LOBBY_ID}`;
    const { card } = await setup(worldFixture({ trustedUrl, enabled: false }));
    fireEvent.mouseEnter(card.getByTestId('trusted-url'));
    expect(
      await screen.findByText('Turn on Github Updates Enabled to publish this world to the mirror.'),
    ).toBeTruthy();
  });

  it("says the group's roles are unknown when the server could not read them, instead of offering none", async () => {
    const unknown = { ...worldsFixture([worldFixture()]), groupRoles: null, groupRolesReadAt: null };
    const { card } = await setup(worldFixture(), { [`GET ${WORLDS}`]: { body: unknown } });
    expect(
      card
        .getByText(
          "The VRChat group's roles could not be read right now, so group roles show by their ids and none can be added. Try again in a minute.",
        )
        .getAttribute('role'),
    ).toBe('status');
  });

  it('shows no such note while the group roles are known', async () => {
    const { card } = await setup(worldFixture());
    expect(card.queryByText(/group's roles could not be read/)).toBeNull();
  });

  it('saves a switch at once', async () => {
    const { fetchMock, card } = await setup(worldFixture(), {
      [`POST ${WORLD}`]: { body: worldFixture({ includeGroupData: true }) },
    });
    fireEvent.click(switchOf(card, 'Include Group Data'));
    await waitFor(() => expect(switchOf(card, 'Include Group Data').checked).toBe(true));
    await waitFor(async () => expect(await bodies(fetchMock)).toEqual([{ includeGroupData: true }]));
    expect(switchOf(card, 'Include Group Data').checked).toBe(true);
  });

  it('cannot turn Compression off once on', async () => {
    const { card } = await setup(worldFixture({ compression: true }));
    expect(switchOf(card, 'Compression').checked).toBe(true);
    expect(switchOf(card, 'Compression').disabled).toBe(true);
    expect(card.getByText('Compression cannot be turned off once on.')).toBeTruthy();
    expect(switchOf(card, 'JSON Custom Data Mode').disabled).toBe(false);
  });

  it("shows 'Failed to update world settings' and what is stored when a save fails", async () => {
    const { card } = await setup(worldFixture(), {
      [`POST ${WORLD}`]: { status: 400, body: { message: 'Custom World Data is not valid JSON.' } },
    });
    fireEvent.click(switchOf(card, 'JSON Custom Data Mode'));
    const alert = await card.findByRole('alert');
    expect(within(alert).getByText('Failed to update world settings')).toBeTruthy();
    expect(within(alert).getByText('Custom World Data is not valid JSON.')).toBeTruthy();
    // One channel for one failure: the card's alert, no toast repeating it.
    expect(toastTexts()).toEqual([]);
    await waitFor(() => expect(switchOf(card, 'JSON Custom Data Mode').checked).toBe(false));
  });

  it('renames the world on Enter and leaves it alone on Escape', async () => {
    const { fetchMock, card } = await setup(worldFixture(), {
      [`POST ${WORLD}`]: { body: worldFixture({ name: 'Main Lobby' }) },
    });
    const name = card.getByLabelText(/^World name/) as HTMLInputElement;
    act(() => name.focus());
    fireEvent.change(name, { target: { value: 'Somewhere' } });
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(document.activeElement).not.toBe(name);
    expect(name.value).toBe('Hangout Lobby');
    act(() => name.focus());
    fireEvent.change(name, { target: { value: '  Main Lobby ' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    expect(await screen.findByRole('article', { name: 'Main Lobby' })).toBeTruthy();
    expect(await bodies(fetchMock)).toEqual([{ name: 'Main Lobby' }]);
  });

  it('refuses a cleared name with a sentence, keeping the name and saving nothing', async () => {
    const { fetchMock, card } = await setup(worldFixture());
    const name = card.getByLabelText(/^World name/) as HTMLInputElement;
    act(() => name.focus());
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() =>
      expect(toastTexts()).toContain('A world needs a name: it is still called “Hangout Lobby”.'),
    );
    expect(name.value).toBe('Hangout Lobby');
    expect(callsTo(fetchMock, 'POST', WORLD)).toHaveLength(0);
  });

  it('saves Custom World Data when the field is left: green border after success, red after failure', async () => {
    const { answers, fetchMock, card } = await setup(worldFixture({ jsonMode: true, customData: '{}' }), {
      [`POST ${WORLD}`]: { body: worldFixture({ jsonMode: true, customData: '{"a":1}' }) },
    });
    const data = card.getByRole('textbox', { name: /^Custom World Data/ }) as HTMLTextAreaElement;
    fireEvent.blur(data);
    expect(callsTo(fetchMock, 'POST', WORLD)).toHaveLength(0);
    fireEvent.change(data, { target: { value: '{"a":1}' } });
    fireEvent.blur(data);
    await waitFor(() => expect(data.getAttribute('data-save-state')).toBe('saved'));
    expect(data.style.borderColor).toBe('var(--mantine-color-green-6)');

    answers[`POST ${WORLD}`] = { status: 400, body: { message: 'Custom World Data is not valid JSON.' } };
    fireEvent.change(data, { target: { value: '{"a":' } });
    fireEvent.blur(data);
    await waitFor(() => expect(data.getAttribute('data-save-state')).toBe('failed'));
    expect(data.style.borderColor).toBe('var(--mantine-color-red-6)');
    expect(data.value).toBe('{"a":');
    expect(within(await card.findByRole('alert')).getByText('Failed to update world settings')).toBeTruthy();
    expect(await bodies(fetchMock)).toEqual([{ customData: '{"a":1}' }, { customData: '{"a":' }]);
  });
});
