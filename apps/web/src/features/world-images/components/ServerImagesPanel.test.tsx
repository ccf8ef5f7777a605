import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { stubUploads } from '../testing/fakeUpload';
import { editorAnswers, GUILD_ID, IMAGES, image, imagePath, PAGE_PATH } from '../testing/fixtures';

const card = async (name: string) =>
  within(await screen.findByRole('article', { name }, { timeout: 10_000 }));
const png = (name: string) => new File(['png bytes'], name, { type: 'image/png' });
const NOT_AN_IMAGE = 'The file is not an image (PNG, JPEG, WebP or GIF).';

describe('Server Images panel', { timeout: 40_000 }, () => {
  it("selects with the checkbox or a double click, shows 'Delete Selected (n)' and deletes after confirming", async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`DELETE ${imagePath(image(1).id)}`]: { status: 204 },
        [`DELETE ${imagePath(image(2).id)}`]: { status: 204 },
      }),
    );
    renderApp(PAGE_PATH);
    const first = await card('poster-1.png');
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).toBeNull();
    fireEvent.click(first.getByRole('checkbox', { name: 'Select poster-1.png' }));
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeTruthy();
    fireEvent.doubleClick(screen.getByRole('article', { name: 'poster-2.png' }));
    expect(screen.getByRole('button', { name: 'Delete Selected (2)' })).toBeTruthy();
    fireEvent.doubleClick(screen.getByRole('article', { name: 'poster-2.png' }));
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeTruthy();
    fireEvent.doubleClick(screen.getByRole('article', { name: 'poster-2.png' }));

    fireEvent.click(screen.getByRole('button', { name: 'Delete Selected (2)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete Selected Images' }));
    expect(dialog.getByText(/Delete the 2 selected images\?/)).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', imagePath(image(1).id))).toHaveLength(0);
    fireEvent.click(dialog.getByRole('button', { name: 'Delete Images' }));
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', imagePath(image(2).id))).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', imagePath(image(1).id))).toHaveLength(1);
    // The list is read again, and the selection is gone.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', IMAGES).length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Delete Selected/ })).toBeNull());
  });

  it("says 'Failed to delete selected images.' when one of them cannot be deleted", async () => {
    stubApi(
      editorAnswers(undefined, {
        [`DELETE ${imagePath(image(1).id)}`]: { status: 204 },
        [`DELETE ${imagePath(image(2).id)}`]: { status: 500, body: {} },
      }),
    );
    renderApp(PAGE_PATH);
    fireEvent.click((await card('poster-1.png')).getByRole('checkbox'));
    fireEvent.click((await card('poster-2.png')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Selected (2)' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Selected Images' })).getByRole('button', {
        name: 'Delete Images',
      }),
    );
    await waitFor(() => expect(toastTexts()).toContain('Failed to delete selected images.'));
  });

  it("deletes one image after confirming, or says 'Failed to delete image.' with the server's reason", async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`DELETE ${imagePath(image(2).id)}`]: {
          status: 403,
          body: { message: 'You need the ManageImages permission in this server.' },
        },
      }),
    );
    renderApp(PAGE_PATH);
    fireEvent.click((await card('poster-2.png')).getByRole('button', { name: 'Delete poster-2.png' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete Image' }));
    expect(dialog.getByText(/Delete “poster-2.png”\?/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Delete Image' }));
    await waitFor(() =>
      expect(toastTexts()).toContain(
        'Failed to delete image. You need the ManageImages permission in this server.',
      ),
    );
    expect(callsTo(fetchMock, 'DELETE', imagePath(image(2).id))).toHaveLength(1);
  });

  it('asks before deleting: Cancel deletes nothing', async () => {
    const fetchMock = stubApi(editorAnswers());
    renderApp(PAGE_PATH);
    fireEvent.click((await card('poster-1.png')).getByRole('button', { name: 'Delete poster-1.png' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Image' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'DELETE', imagePath(image(1).id))).toHaveLength(0);
  });

  it('turns an image left and right in the edit dialog', async () => {
    const turned = image(2, { width: 600, height: 802, imageHash: 'turned' });
    const fetchMock = stubApi(
      editorAnswers(undefined, { [`POST ${imagePath(image(2).id)}`]: { body: turned } }),
    );
    renderApp(PAGE_PATH);
    fireEvent.click((await card('poster-2.png')).getByRole('button', { name: 'Edit poster-2.png' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit: poster-2.png' }));
    expect(dialog.getByText('Size: 802 x 600 px')).toBeTruthy();
    // The stored image itself, not the 256 px preview, and a link to it at full size.
    const shown = (dialog.getByRole('img') as HTMLImageElement).src;
    expect(new URL(shown).pathname).toBe(imagePath(image(2).id));
    expect(dialog.getByRole('link', { name: 'Open full size' }).getAttribute('href')).toBe(
      `${imagePath(image(2).id)}?v=${image(2).imageHash}`,
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Turn Right' }));
    expect(await dialog.findByText('Size: 600 x 802 px')).toBeTruthy();
    expect((dialog.getByRole('img') as HTMLImageElement).src).toContain('?v=turned');
    fireEvent.click(dialog.getByRole('button', { name: 'Turn Left' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', imagePath(image(2).id))).toHaveLength(2));
    const bodies = await Promise.all(callsTo(fetchMock, 'POST', imagePath(image(2).id)).map((r) => r.json()));
    expect(bodies).toEqual([{ rotation: 'Clockwise' }, { rotation: 'CounterClockwise' }]);
  });

  it('uploads chosen files with progress, the XSRF header and cookies, and names the refused one', async () => {
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('theme=dark; XSRF-TOKEN=token123');
    const fetchMock = stubApi(editorAnswers());
    const sent = stubUploads((file) =>
      file.name === 'notes.png'
        ? { status: 415, body: { message: NOT_AN_IMAGE } }
        : { status: 200, body: image(3, { name: file.name }) },
    );
    renderApp(PAGE_PATH);
    await card('poster-1.png');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [png('hall.png'), png('notes.png')] } });
    await waitFor(() => expect(toastTexts()).toContain('Uploading hall.png (50%)'));
    await waitFor(() => expect(toastTexts()).toContain(`Failed to upload notes.png: ${NOT_AN_IMAGE}`));
    expect(toastTexts()).toContain('Uploaded hall.png');
    expect(sent.map((u) => u.file.name)).toEqual(['hall.png', 'notes.png']);
    expect(sent[0]).toMatchObject({
      url: `/api/world_images/${GUILD_ID}/upload`,
      headers: { 'X-XSRF-TOKEN': 'token123' },
      withCredentials: true,
    });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', IMAGES).length).toBeGreaterThan(1));
  });

  it("uploads files dropped anywhere on the page, showing 'Drop your file here!' while they are dragged", async () => {
    stubApi(editorAnswers());
    const sent = stubUploads((file) => ({ status: 200, body: image(3, { name: file.name }) }));
    renderApp(PAGE_PATH);
    await card('poster-1.png');
    const files = [png('stage.png')];
    const dataTransfer = { types: ['Files'], files };
    fireEvent.dragEnter(document.body, { dataTransfer });
    expect(await screen.findByText('Drop your file here!')).toBeTruthy();
    fireEvent.dragOver(document.body, { dataTransfer });
    fireEvent.drop(document.body, { dataTransfer });
    expect(screen.queryByText('Drop your file here!')).toBeNull();
    await waitFor(() => expect(toastTexts()).toContain('Uploaded stage.png'));
    expect(sent.map((u) => u.file.name)).toEqual(['stage.png']);
  });

  it('uploads nothing a viewer drops, and keeps the file from replacing the page', async () => {
    stubApi(editorAnswers(['ViewImages']));
    const sent = stubUploads((file) => ({ status: 200, body: image(3, { name: file.name }) }));
    renderApp(PAGE_PATH);
    await card('poster-1.png');
    const dataTransfer = { types: ['Files'], files: [png('stage.png')] };
    fireEvent.dragEnter(document.body, { dataTransfer });
    expect(screen.queryByText('Drop your file here!')).toBeNull();
    // fireEvent answers false when the event's default (opening the file) was prevented.
    expect(fireEvent.drop(document.body, { dataTransfer })).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sent).toHaveLength(0);
  });
});
