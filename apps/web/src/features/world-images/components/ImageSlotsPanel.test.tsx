import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { editorAnswers, image, PAGE_PATH, SLOTS, slot, slotPath, slotsFixture } from '../testing/fixtures';
import { IMAGE_DRAG_TYPE } from './imageDrag';

const slotCard = async (slotId: number) =>
  within(await screen.findByRole('article', { name: `Slot ${slotId}` }, { timeout: 10_000 }));
const sentTo = (fetchMock: ReturnType<typeof stubApi>, path: string, method = 'POST') =>
  Promise.all(callsTo(fetchMock, method, path).map((r) => r.clone().json()));
/** Opens a Mantine Select and answers its options (jsdom never finishes the dropdown's transition: hidden). */
const openOptions = async (input: HTMLElement) => {
  fireEvent.click(input);
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  return within(list).getAllByRole('option', { hidden: true });
};
const chooseOption = async (input: HTMLElement, option: string) => {
  const found = (await openOptions(input)).find((o) => o.textContent === option);
  fireEvent.click(found as HTMLElement);
};

/** Slot 1 with poster 2 in it, as the server answers after the image was set. */
const filled = slot(1, {
  imageId: image(2).id,
  imageName: image(2).name,
  imageHash: image(2).imageHash,
  width: 512,
  height: 384,
});

describe('Image Slots panel', { timeout: 40_000 }, () => {
  it('renames a slot in place (Enter saves, the empty name shows No Name)', async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, { [`POST ${slotPath(1)}`]: { body: slot(1, { name: 'Stage left' }) } }),
    );
    renderApp(PAGE_PATH);
    const card = await slotCard(1);
    expect(card.getByText('No Name')).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: 'Rename slot 1' }));
    const input = card.getByRole('textbox', { name: 'Name of slot 1' });
    fireEvent.change(input, { target: { value: '  Stage left ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(await card.findByText('Stage left')).toBeTruthy();
    expect(await sentTo(fetchMock, slotPath(1))).toEqual([
      { imageId: null, name: 'Stage left', maxDimension: 512, slotId: 1, order: 1 },
    ]);
  });

  it('sets Max Dimension from the fixed list', async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`POST ${slotPath(0)}`]: { body: { ...slotsFixture()[0], maxDimension: 1024 } },
      }),
    );
    renderApp(PAGE_PATH);
    const card = await slotCard(0);
    const options = await openOptions(card.getByLabelText('Max Dimension'));
    expect(options.map((o) => o.textContent)).toEqual([
      '128 px',
      '256 px',
      '384 px',
      '512 px',
      '768 px',
      '1024 px',
      '1536 px',
      '2048 px',
    ]);
    fireEvent.click(options.find((o) => o.textContent === '1024 px') as HTMLElement);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', slotPath(0))).toHaveLength(1));
    expect((await sentTo(fetchMock, slotPath(0)))[0]).toMatchObject({ maxDimension: 1024, slotId: 0 });
  });

  it('fills a slot by choosing an image (keyboard way) and clears it with Clear Image', async () => {
    const fetchMock = stubApi(editorAnswers(undefined, { [`POST ${slotPath(1)}`]: { body: filled } }));
    renderApp(PAGE_PATH);
    const card = await slotCard(1);
    await chooseOption(card.getByLabelText('Image'), 'poster-2.png');
    expect(await card.findByText('Image Name: poster-2.png')).toBeTruthy();
    expect(card.getByText('Width: 512 px')).toBeTruthy();
    expect(card.queryByText('Drop Image Here')).toBeNull();
    expect((await sentTo(fetchMock, slotPath(1)))[0]).toMatchObject({ imageId: image(2).id, slotId: 1 });

    fireEvent.click(card.getByRole('button', { name: 'Clear Image' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', slotPath(1))).toHaveLength(2));
    expect((await sentTo(fetchMock, slotPath(1)))[1]).toMatchObject({ imageId: null });
  });

  it('fills a slot with a server image card dropped on it', async () => {
    const fetchMock = stubApi(editorAnswers(undefined, { [`POST ${slotPath(1)}`]: { body: filled } }));
    renderApp(PAGE_PATH);
    const card = await slotCard(1);
    const target = card.getByText('Drop Image Here').parentElement as HTMLElement;
    const dataTransfer = {
      types: [IMAGE_DRAG_TYPE],
      getData: (type: string) => (type === IMAGE_DRAG_TYPE ? image(2).id : ''),
      dropEffect: 'none',
    };
    fireEvent.dragOver(target, { dataTransfer });
    fireEvent.drop(target, { dataTransfer });
    expect(await card.findByText('Image Name: poster-2.png')).toBeTruthy();
    expect((await sentTo(fetchMock, slotPath(1)))[0]).toMatchObject({ imageId: image(2).id });
    // A dragged image is not a file: the page's upload overlay stays away.
    expect(screen.queryByText('Drop your file here!')).toBeNull();
  });

  it("says 'Failed to update slot.' with the server's reason, and 'Failed to update slot image.'", async () => {
    stubApi(
      editorAnswers(undefined, {
        [`POST ${slotPath(1)}`]: { status: 400, body: { message: 'The name is too long.' } },
      }),
    );
    renderApp(PAGE_PATH);
    const card = await slotCard(1);
    fireEvent.click(card.getByRole('button', { name: 'Rename slot 1' }));
    fireEvent.change(card.getByRole('textbox', { name: 'Name of slot 1' }), { target: { value: 'x' } });
    fireEvent.blur(card.getByRole('textbox', { name: 'Name of slot 1' }));
    await waitFor(() => expect(toastTexts()).toContain('Failed to update slot. The name is too long.'));
    await chooseOption(card.getByLabelText('Image'), 'poster-1.png');
    await waitFor(() => expect(toastTexts()).toContain('Failed to update slot image. The name is too long.'));
  });

  it('adds a slot, and deletes one after confirming (or says it failed)', async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`PUT ${SLOTS}`]: { body: { imageSlots: [...slotsFixture(), slot(2)] } },
        [`DELETE ${slotPath(2)}`]: { status: 204 },
        [`DELETE ${slotPath(1)}`]: { status: 500, body: {} },
      }),
    );
    renderApp(PAGE_PATH);
    await slotCard(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add slot' }));
    const added = await slotCard(2);
    expect(screen.getByLabelText('Number of image slots').textContent).toBe('3');

    fireEvent.click(added.getByRole('button', { name: 'Delete slot 2' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Slot' })).getByRole('button', {
        name: 'Delete Slot',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Slot 2' })).toBeNull());
    expect(callsTo(fetchMock, 'DELETE', slotPath(2))).toHaveLength(1);

    fireEvent.click((await slotCard(1)).getByRole('button', { name: 'Delete slot 1' }));
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toHaveLength(1));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Slot' })).getByRole('button', {
        name: 'Delete Slot',
      }),
    );
    await waitFor(() => expect(toastTexts()).toContain('Failed to delete slot.'));
  });
});

describe('Slot order', { timeout: 40_000 }, () => {
  /** jsdom lays nothing out: give each slot card a 200 px high box, one under the other, so dnd-kit can sort. */
  function layOutSlots() {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const cards = [...document.querySelectorAll('article[aria-label^="Slot "]')];
      const card = this.closest('article[aria-label^="Slot "]');
      const index = card ? cards.indexOf(card) : -1;
      const top = index < 0 ? 0 : index * 210;
      const height = index < 0 ? 0 : 200;
      return {
        x: 0,
        y: top,
        top,
        left: 0,
        width: 300,
        height,
        right: 300,
        bottom: top + height,
        toJSON: () => ({}),
      };
    });
  }

  /** Picks up slot 2 by its handle with Space, moves it up twice and drops it (Space). */
  async function moveSlotTwoToTheTop() {
    await slotCard(2);
    layOutSlots();
    const handle = screen.getByRole('button', { name: 'Move slot 2' });
    handle.focus();
    // Each key is given time to be handled (dnd-kit measures and moves between presses).
    const press = (target: Element | Document, key: string, code: string) =>
      act(async () => {
        fireEvent.keyDown(target, { key, code });
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
    await press(handle, ' ', 'Space');
    await press(document, 'ArrowUp', 'ArrowUp');
    await press(document, 'ArrowUp', 'ArrowUp');
    await press(document, ' ', 'Space');
  }

  const three = [...slotsFixture(), slot(2, { name: 'Bar' })];
  const shownOrder = () =>
    screen.getAllByRole('article', { name: /^Slot \d$/ }).map((a) => a.getAttribute('aria-label'));

  it('moves a slot with the keyboard, renumbers from 0 and sends one batch', async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`GET ${SLOTS}`]: { body: { imageSlots: three } },
        [`POST ${SLOTS}/batch`]: {
          body: { imageSlots: [three[2], three[0], three[1]].map((s, order) => ({ ...s, order })) },
        },
      }),
    );
    renderApp(PAGE_PATH);
    await moveSlotTwoToTheTop();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', `${SLOTS}/batch`)).toHaveLength(1));
    expect((await sentTo(fetchMock, `${SLOTS}/batch`))[0]).toEqual({
      imageSlots: [
        { id: three[2]!.id, order: 0 },
        { id: three[0]!.id, order: 1 },
        { id: three[1]!.id, order: 2 },
      ],
    });
    expect(shownOrder()).toEqual(['Slot 2', 'Slot 0', 'Slot 1']);
  });

  it("says 'Failed to reorder slots.' and shows the stored order again when the batch is refused", async () => {
    const fetchMock = stubApi(
      editorAnswers(undefined, {
        [`GET ${SLOTS}`]: { body: { imageSlots: three } },
        [`POST ${SLOTS}/batch`]: { status: 500, body: {} },
      }),
    );
    renderApp(PAGE_PATH);
    await moveSlotTwoToTheTop();
    await waitFor(() => expect(toastTexts()).toContain('Failed to reorder slots.'));
    await waitFor(() => expect(shownOrder()).toEqual(['Slot 0', 'Slot 1', 'Slot 2']));
    expect(callsTo(fetchMock, 'GET', SLOTS).length).toBeGreaterThan(1);
  });
});
