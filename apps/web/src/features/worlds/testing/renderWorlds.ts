import { screen, within } from '@testing-library/react';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import type { World } from '../api/worlds';
import { WORLDS, WORLDS_PATH, worldFixture, worldsFixture, worldsTabAnswers } from './worldFixtures';

/** Opens the Worlds tab with one world (plus extra stubbed answers) and answers its card. */
export async function renderWorldCard(world: World = worldFixture(), extra: Answers = {}) {
  const answers: Answers = { ...worldsTabAnswers(undefined, worldsFixture([world])), ...extra };
  const fetchMock = stubApi(answers);
  renderApp(WORLDS_PATH);
  const card = within(await screen.findByRole('article', { name: world.name }, { timeout: 10_000 }));
  return { answers, fetchMock, card };
}

/** The JSON bodies sent to `METHOD path` (default: the world's settings), oldest first. */
export const sentBodies = (
  fetchMock: Parameters<typeof callsTo>[0],
  path = `${WORLDS}/${worldFixture().id}`,
  method = 'POST',
) => Promise.all(callsTo(fetchMock, method, path).map((r) => r.json()));
