import { describe, expect, it } from 'vitest';
import { renderWorldCard as setup } from '../testing/renderWorlds';
import { LOBBY_ID, WORLDS, worldFixture } from '../testing/worldFixtures';

const REQUESTS = `GET ${WORLDS}/requests`;
const since = '2026-11-24T16:00:00.000Z';

describe('world download count', () => {
  it('shows each world’s requests of the last 24 hours', async () => {
    const { card } = await setup(worldFixture(), {
      [REQUESTS]: { body: { since, worlds: [{ worldId: LOBBY_ID, last24h: 12345 }] } },
    });
    expect((await card.findByTestId('world-requests')).textContent).toBe('Requests (24 h): 12,345');
  });

  it('shows 0 for a world nobody downloaded', async () => {
    const { card } = await setup(worldFixture(), { [REQUESTS]: { body: { since, worlds: [] } } });
    expect((await card.findByTestId('world-requests')).textContent).toBe('Requests (24 h): 0');
  });

  it('shows nothing when the counts cannot be loaded, and the card still works', async () => {
    const { card } = await setup(worldFixture(), { [REQUESTS]: { status: 500, body: { message: 'x' } } });
    expect(await card.findByText('Untrusted URL')).toBeTruthy();
    expect(card.queryByTestId('world-requests')).toBeNull();
  });
});
