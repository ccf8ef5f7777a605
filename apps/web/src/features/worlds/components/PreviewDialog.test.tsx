import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import {
  LOBBY_ID,
  WORLDS,
  WORLDS_PATH,
  worldFixture,
  worldsFixture,
  worldsTabAnswers,
} from '../testing/worldFixtures';
import { jsonFileName } from './jsonFile';

const PREVIEW = `${WORLDS}/preview/${LOBBY_ID}`;
const doc = { Version: 1, MemberCount: 40, CustomData: 'Welcome!', GuildUsers: { Admin: ['NeonVR'] } };

async function openPreview(extra: Answers, name = 'Hangout Lobby') {
  const fetchMock = stubApi({
    ...worldsTabAnswers(undefined, worldsFixture([worldFixture({ name })])),
    ...extra,
  });
  renderApp(WORLDS_PATH);
  const card = within(await screen.findByRole('article', { name }));
  fireEvent.click(card.getByRole('button', { name: /^Preview / }));
  const dialog = within(await screen.findByRole('dialog', { name: `Preview: ${name}` }));
  return { dialog, fetchMock };
}

describe('world preview', () => {
  it('shows the pretty JSON in a fullscreen dialog and closes', async () => {
    const { dialog, fetchMock } = await openPreview({ [`GET ${PREVIEW}`]: { body: doc } });
    const json = await dialog.findByTestId('preview-json');
    expect(json.textContent).toBe(JSON.stringify(doc, null, 2));
    expect(screen.getByRole('dialog').getAttribute('data-full-screen')).toBe('true');
    // The header's × and the footer button are both named Close; the footer one.
    fireEvent.click(dialog.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'GET', PREVIEW)).toHaveLength(1);
  });

  it('copies the JSON to the clipboard, and says Copy failed when that is refused', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { dialog } = await openPreview({ [`GET ${PREVIEW}`]: { body: doc } });
    await dialog.findByTestId('preview-json');
    fireEvent.click(dialog.getByRole('button', { name: 'Copy to clipboard' }));
    await waitFor(() => expect(toastTexts()).toContain('Copied to clipboard.'));
    expect(writeText).toHaveBeenCalledWith(JSON.stringify(doc, null, 2));

    writeText.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    fireEvent.click(dialog.getByRole('button', { name: 'Copy to clipboard' }));
    await waitFor(() => expect(toastTexts()).toContain('Copy failed'));
  });

  it('downloads a .json file named after the world', async () => {
    const createObjectURL = vi.fn((_: Blob) => 'blob:preview');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal(
      'URL',
      class extends URL {
        static createObjectURL = createObjectURL;
        static revokeObjectURL = revokeObjectURL;
      },
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { dialog } = await openPreview({ [`GET ${PREVIEW}`]: { body: doc } }, 'Club: Main/Hall');
    await dialog.findByTestId('preview-json');
    fireEvent.click(dialog.getByRole('button', { name: 'Download' }));
    expect(clicked).toHaveLength(1);
    expect(clicked[0].download).toBe('Club_ Main_Hall.json');
    expect(clicked[0].href).toBe('blob:preview');
    const blob = createObjectURL.mock.calls[0][0];
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual(doc);
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview'), { timeout: 2000 });
  });

  it("shows the server's message when the preview cannot be built, with nothing to copy", async () => {
    const { dialog } = await openPreview({
      [`GET ${PREVIEW}`]: {
        status: 503,
        body: { message: 'Discord is not reachable right now. Try again later.' },
      },
    });
    expect(await dialog.findByText('Discord is not reachable right now. Try again later.')).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Copy to clipboard' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((dialog.getByRole('button', { name: 'Download' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("falls back to 'Failed to load preview data' without a message", async () => {
    const { dialog } = await openPreview({ [`GET ${PREVIEW}`]: { status: 500, body: {} } });
    expect(await dialog.findByText('Failed to load preview data')).toBeTruthy();
  });
});

describe('jsonFileName', () => {
  it('keeps the name and replaces characters file systems refuse', () => {
    expect(jsonFileName('Hangout Lobby')).toBe('Hangout Lobby.json');
    expect(jsonFileName('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j.json');
    expect(jsonFileName(' / ')).toBe('_.json');
    expect(jsonFileName('   ')).toBe('world.json');
  });
});
