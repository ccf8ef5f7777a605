import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { atlasFixture, editorAnswers, GENERATE, METADATA, PAGE_PATH, WORLD_ID } from '../testing/fixtures';

const RUNNING = 'An atlas is already being generated for this world.';

async function openAtlases(answers: Answers) {
  const fetchMock = stubApi(answers);
  renderApp(PAGE_PATH);
  fireEvent.click(await screen.findByRole('button', { name: 'View World Atlases' }, { timeout: 10_000 }));
  const dialog = within(await screen.findByRole('dialog', { name: 'World Atlases' }));
  return { fetchMock, dialog };
}

const atlasUrl = (index: number) => `/api/world_images/atlas/${WORLD_ID}/1/${index}`;

describe('World Atlas dialog', { timeout: 40_000 }, () => {
  it("says 'No atlases found', then follows a generation from the info notice to the listed atlases", async () => {
    const answers = editorAnswers();
    const { fetchMock, dialog } = await openAtlases(answers);
    expect(await dialog.findByText('No atlases found')).toBeTruthy();

    answers[`POST ${GENERATE}`] = { body: atlasFixture({ status: 'queued' }) };
    answers[`GET ${METADATA}`] = { body: atlasFixture({ status: 'running', progress: 40 }) };
    fireEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(toastTexts()).toContain('Atlas generation started. This can take a moment.'));
    expect(await dialog.findByText('Generating…')).toBeTruthy();
    expect(toastTexts()).not.toContain('World atlases generated.');

    answers[`GET ${METADATA}`] = {
      body: atlasFixture({
        variation: 1,
        lastGeneration: '2026-11-25T16:00:00.000Z',
        metadata: [
          { atlasIndex: 0, width: 2048, height: 2048, url: atlasUrl(0) },
          { atlasIndex: 1, width: 1024, height: 512, url: atlasUrl(1) },
        ],
      }),
    };
    await waitFor(() => expect(toastTexts()).toContain('World atlases generated.'), { timeout: 5000 });
    const thumbnails = dialog.getAllByAltText(/^Atlas \d$/) as HTMLImageElement[];
    expect(thumbnails.map((img) => [img.alt, new URL(img.src).pathname])).toEqual([
      ['Atlas 0', atlasUrl(0)],
      ['Atlas 1', atlasUrl(1)],
    ]);
    expect(dialog.getByText('Atlas 1 · 1024 x 512 px')).toBeTruthy();
    expect(dialog.queryByText('No atlases found')).toBeNull();
    // Done: no more polling.
    const reads = callsTo(fetchMock, 'GET', METADATA).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(callsTo(fetchMock, 'GET', METADATA)).toHaveLength(reads);
  }, 40_000);

  it('World Images says when the atlases are out of date, and stops once they are current', async () => {
    const answers = editorAnswers();
    answers[`GET ${METADATA}`] = {
      body: atlasFixture({ variation: 0, lastGeneration: '2026-11-25T16:00:00.000Z', outOfDate: true }),
    };
    const { dialog } = await openAtlases(answers);
    expect(await screen.findByText('Atlases out of date')).toBeTruthy();
    expect(
      screen.getByText(/generated again automatically a few minutes after the last change/),
    ).toBeTruthy();

    answers[`POST ${GENERATE}`] = { body: atlasFixture({ status: 'queued', variation: 0 }) };
    answers[`GET ${METADATA}`] = {
      body: atlasFixture({ variation: 1, lastGeneration: '2026-11-25T17:00:00.000Z', outOfDate: false }),
    };
    fireEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.queryByText('Atlases out of date')).toBeNull(), { timeout: 5000 });
  }, 40_000);

  it("says 'Error generating atlas' with the server's reason when the generation fails", async () => {
    const answers = editorAnswers();
    const { dialog } = await openAtlases(answers);
    await dialog.findByText('No atlases found');
    answers[`POST ${GENERATE}`] = { body: atlasFixture({ status: 'queued' }) };
    answers[`GET ${METADATA}`] = { body: atlasFixture({ status: 'queued' }) };
    fireEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    expect(await dialog.findByText('Waiting to generate…')).toBeTruthy();
    answers[`GET ${METADATA}`] = {
      body: atlasFixture({ status: 'failed', error: 'The slots hold no image to pack.' }),
    };
    await waitFor(
      () => expect(toastTexts()).toContain('Error generating atlas: The slots hold no image to pack.'),
      { timeout: 5000 },
    );
  });

  it("shows the server's sentence when a generation is already running", async () => {
    const { dialog } = await openAtlases(
      editorAnswers(undefined, { [`POST ${GENERATE}`]: { status: 409, body: { message: RUNNING } } }),
    );
    fireEvent.click(await dialog.findByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(toastTexts()).toContain(RUNNING));
    expect(toastTexts()).not.toContain('Atlas generation started. This can take a moment.');
  });

  it('lists the atlases without Generate for a viewer', async () => {
    const { dialog, fetchMock } = await openAtlases(
      editorAnswers(['ViewImages'], {
        [`GET ${METADATA}`]: {
          body: atlasFixture({
            variation: 1,
            metadata: [{ atlasIndex: 0, width: 512, height: 512, url: atlasUrl(0) }],
          }),
        },
      }),
    );
    expect(await dialog.findByAltText('Atlas 0')).toBeTruthy();
    expect(dialog.queryByRole('button', { name: 'Generate' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', GENERATE)).toHaveLength(0);
  });
});
