import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { sentBodies as bodies, renderWorldCard as setup } from '../testing/renderWorlds';
import { LOBBY_ID, WORLDS, worldFixture } from '../testing/worldFixtures';

const WORLD = `${WORLDS}/${LOBBY_ID}`;

describe('locking and deleting a world', () => {
  it('unlocks only after confirming, and locks again at once', async () => {
    const { answers, fetchMock, card } = await setup(worldFixture(), {
      [`POST ${WORLD}`]: { body: worldFixture({ locked: false }) },
    });
    fireEvent.click(card.getByRole('button', { name: /^Unlock world: / }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Unlock World' }));
    expect(dialog.getByText(/allows deleting it.*removes all its data and cannot be undone/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', WORLD)).toHaveLength(0);

    fireEvent.click(card.getByRole('button', { name: /^Unlock world: / }));
    dialog = within(await screen.findByRole('dialog', { name: 'Unlock World' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await card.findByRole('button', { name: /^Lock world: / })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect((card.getByRole('button', { name: /^Delete / }) as HTMLButtonElement).disabled).toBe(false),
    );

    answers[`POST ${WORLD}`] = { body: worldFixture({ locked: true }) };
    fireEvent.click(card.getByRole('button', { name: /^Lock world: / }));
    expect(await card.findByRole('button', { name: /^Unlock world: / })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await bodies(fetchMock)).toEqual([{ locked: false }, { locked: true }]);
  });

  it('deletes an unlocked world after confirming', async () => {
    const { fetchMock, card } = await setup(worldFixture({ locked: false }), {
      [`DELETE ${WORLD}`]: { status: 204 },
    });
    fireEvent.click(card.getByRole('button', { name: /^Delete / }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete World' }));
    expect(dialog.getByText(/Hangout Lobby.*cannot be undone/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Delete World' }));
    expect(await screen.findByText('No worlds yet')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', WORLD)).toHaveLength(1);
  });

  it("keeps the world and shows the server's reason when deleting fails", async () => {
    const { card } = await setup(worldFixture({ locked: false }), {
      [`DELETE ${WORLD}`]: { status: 409, body: { message: 'Unlock the world before deleting it.' } },
    });
    fireEvent.click(card.getByRole('button', { name: /^Delete / }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete World' })).getByRole('button', {
        name: 'Delete World',
      }),
    );
    await waitFor(() =>
      expect(toastTexts()).toContain('Failed to delete world: Unlock the world before deleting it.'),
    );
    expect(screen.getByRole('article', { name: 'Hangout Lobby' })).toBeTruthy();
  });
});
