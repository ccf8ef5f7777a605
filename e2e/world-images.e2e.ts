import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useBrowser } from './browser';
import { png } from './png';

/**
 * World Images in demo mode, as the Hangout's owner (the demo admin): the contact e-mail, uploads dropped on
 * the page (one a text file named .png, refused), a rotation, two slots filled (by dragging an image card and
 * by the keyboard-friendly select), reordered by dragging, atlases generated, listed and served, and the
 * world's data carrying AtlasDetail. A world of its own, so the seeded one stays as the Worlds journey expects.
 */
const browser = useBrowser();

const HANGOUT = '1300000000000000001';
const NOT_AN_IMAGE = 'The file is not a PNG, JPEG, WebP or GIF image.';
const ATLAS_RUNNING = 'An atlas is already being generated for this world.';

/** Drops files on the page as a person dragging them from their desktop would (dragenter, dragover, drop). */
async function dropFiles(page: Page, files: { name: string; bytes: Buffer; type: string }[]): Promise<void> {
  const transfer = await page.evaluateHandle(
    (list) => {
      const data = new DataTransfer();
      for (const { name, base64, type } of list) {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], name, { type }));
      }
      return data;
    },
    files.map(({ name, bytes, type }) => ({ name, type, base64: bytes.toString('base64') })),
  );
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
  await page.getByText('Drop your file here!').waitFor();
  await page.dispatchEvent('main', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

describe('World Images', () => {
  it('takes the contact e-mail, uploads, rotates, fills and orders slots, and generates served atlases', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto(`/server-settings/${HANGOUT}/worlds`);

    // A world of its own.
    await page.getByRole('article', { name: 'Hangout Lobby' }).waitFor();
    const before = await page.getByRole('article').count();
    await page.getByRole('button', { name: 'Create new' }).click();
    await vi.waitFor(async () => expect(await page.getByRole('article').count()).toBe(before + 1), {
      timeout: 30_000,
    });
    await page.getByRole('article').last().getByLabel('World name').fill('Poster Gallery');
    await page.getByRole('article').last().getByLabel('World name').press('Enter');
    const world = page.getByRole('article', { name: 'Poster Gallery' });
    await world.waitFor();
    await world.getByRole('button', { name: 'Images' }).click();
    await page.waitForURL(/\/worlds\/images\/[0-9a-f-]{36}$/);
    const worldId = page.url().split('/').pop() ?? '';

    // The contact e-mail comes first (unless an earlier run stored one).
    await page
      .getByRole('heading', { name: /Email Required|Image Slots/ })
      .first()
      .waitFor();
    if (await page.getByRole('heading', { name: 'Email Required' }).isVisible()) {
      await page.getByText(/can contact you about issues or reports/).waitFor();
      await page.getByLabel('Contact e-mail').fill('owner@');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Please enter a valid email address.').waitFor();
      await page.getByLabel('Contact e-mail').fill('owner@hangout.example');
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await page.getByRole('button', { name: 'View World Atlases' }).waitFor();
    await page.getByText('No image slots yet').waitFor();

    // Three files dropped on the page: two pictures and a text file named like one.
    const uploads: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/upload')) uploads.push(r.status());
    });
    await dropFiles(page, [
      { name: 'red.png', bytes: png(64, 32, [220, 40, 40]), type: 'image/png' },
      { name: 'blue.png', bytes: png(48, 48, [40, 80, 220]), type: 'image/png' },
      { name: 'notes.png', bytes: Buffer.from('These are my notes, not a picture.\n'), type: 'image/png' },
    ]);
    // One after the other; a loaded machine decodes slowly.
    await vi.waitFor(() => expect(uploads).toHaveLength(3), { timeout: 90_000, interval: 250 });
    expect(uploads).toEqual([201, 201, 415]);
    await toast(page, `Failed to upload notes.png: ${NOT_AN_IMAGE}`).waitFor();
    const images = page.getByRole('region', { name: 'Server Images' });
    const red = images.getByRole('article', { name: 'red.png' });
    const blue = images.getByRole('article', { name: 'blue.png' });
    await red.getByText('Size: 64 x 32 px').waitFor();
    await blue.getByText('Size: 48 x 48 px').waitFor();
    expect(await images.getByRole('article', { name: 'notes.png' }).count()).toBe(0);

    // Turn red.png right: 64 x 32 becomes 32 x 64.
    await red.getByRole('button', { name: 'Edit red.png' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit: red.png' });
    await edit.getByRole('button', { name: 'Turn Right' }).click();
    await edit.getByText('Size: 32 x 64 px').waitFor();
    // The dialog shows the stored image itself, turned (its new bytes, not the browser's cached old ones).
    await expect
      .poll(() =>
        edit
          .getByRole('img', { name: 'red.png' })
          .evaluate((img: HTMLImageElement) => [
            img.naturalWidth,
            img.naturalHeight,
            new URL(img.src).pathname.endsWith('/preview'),
          ]),
      )
      .toEqual([32, 64, false]);
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });
    await red.getByText('Size: 32 x 64 px').waitFor();

    // Two slots: red.png dragged onto slot 0, blue.png chosen in slot 1's Image select.
    const slots = page.getByRole('region', { name: 'Image Slots' });
    for (const slotId of [0, 1]) {
      await slots.getByRole('button', { name: 'Add slot' }).click();
      await slots.getByRole('article', { name: `Slot ${slotId}` }).waitFor();
    }
    const slot0 = slots.getByRole('article', { name: 'Slot 0' });
    const slot1 = slots.getByRole('article', { name: 'Slot 1' });
    await red.dragTo(slot0.getByText('Drop Image Here'));
    await slot0.getByText('Image Name: red.png').waitFor();
    await slot0.getByText('Width: 32 px').waitFor();
    await slot0.getByText('Height: 64 px').waitFor();
    await slot1.getByLabel('Image').click();
    await page.getByRole('option', { name: 'blue.png' }).click();
    await slot1.getByText('Image Name: blue.png').waitFor();
    // Rename slot 1 and give it a smaller Max Dimension: 48 x 48 fits 128 unchanged.
    await slot1.getByRole('button', { name: 'Rename slot 1' }).click();
    await slot1.getByLabel('Name of slot 1').fill('Stage');
    await slot1.getByLabel('Name of slot 1').press('Enter');
    await slot1.getByText('Stage', { exact: true }).waitFor();
    await slot1.getByLabel('Max Dimension').click();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/1/slots') && r.request().method() === 'POST',
    );
    await page.getByRole('option', { name: '128 px' }).click();
    expect((await saved).status()).toBe(200);

    // Drag slot 1 by its handle in front of slot 0: one batch, and the order stays after a reload.
    const handle = slot1.getByRole('button', { name: 'Move slot 1' });
    await handle.scrollIntoViewIfNeeded();
    const from = (await handle.boundingBox())!;
    const to = (await slot0.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 20, to.y + to.height / 2, { steps: 15 });
    const batch = page.waitForResponse((r) => r.url().endsWith('/slots/batch'));
    await page.mouse.up();
    expect((await batch).status()).toBe(200);
    const order = () =>
      slots.getByRole('article').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')));
    expect(await order()).toEqual(['Slot 1', 'Slot 0']);
    await page.reload({ waitUntil: 'networkidle' });
    await slot0.getByText('Image Name: red.png').waitFor();
    expect(await order()).toEqual(['Slot 1', 'Slot 0']);
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/world-images.png', fullPage: true });

    // Generate the atlases; a second Generate while the first is queued or running is refused.
    await page.getByRole('button', { name: 'View World Atlases' }).click();
    const atlases = page.getByRole('dialog', { name: 'World Atlases' });
    await atlases.getByText('No atlases found').waitFor();
    await atlases.getByRole('button', { name: 'Generate' }).click();
    await toast(page, 'Atlas generation started.').waitFor();
    const again = page.waitForResponse((r) => r.url().endsWith('/generate'));
    await atlases.getByRole('button', { name: 'Generate' }).click();
    const second = await again;
    if (second.status() === 409) await toast(page, ATLAS_RUNNING).waitFor();
    else expect(second.status()).toBe(200); // the first run had already finished
    await toast(page, 'World atlases generated.').waitFor({ timeout: 30_000 });
    const thumbnail = atlases.getByRole('img', { name: 'Atlas 0' });
    await thumbnail.waitFor();
    await vi.waitFor(
      async () =>
        expect(
          await thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        ).toBeGreaterThan(0),
      { timeout: 30_000 },
    );
    const served = await page.request.get((await thumbnail.getAttribute('src')) ?? '');
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    await page.keyboard.press('Escape');

    // The world's data now carries AtlasDetail: one rectangle per filled slot.
    await page.getByRole('button', { name: 'Back' }).click();
    await world.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview: Poster Gallery' });
    const json = preview.getByTestId('preview-json');
    await json.waitFor();
    const data = JSON.parse((await json.textContent()) ?? '');
    expect(data.AtlasDetail).toMatchObject({ Variation: expect.any(Number) });
    const rectangles = data.AtlasDetail.MetaData as { SlotId: number; Width: number; Height: number }[];
    expect(
      rectangles
        .map(({ SlotId, Width, Height }) => ({ SlotId, Width, Height }))
        .sort((a, b) => a.SlotId - b.SlotId),
    ).toEqual([
      { SlotId: 0, Width: 32, Height: 64 },
      { SlotId: 1, Width: 48, Height: 48 },
    ]);
    await preview.getByRole('button', { name: 'Close' }).last().click();

    // On a phone (390 px) the editor fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.goto(`/server-settings/${HANGOUT}/worlds/images/${worldId}`);
    await slots.getByRole('article', { name: 'Slot 0' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/shots/world-images-phone.png', fullPage: true });

    // Leave the Hangout as it was: unlock and delete the world (its slots and atlases go with it).
    await page.setViewportSize({ width: 1280, height: 800 });
    await browser.goto(`/server-settings/${HANGOUT}/worlds`);
    await world.getByRole('button', { name: 'Unlock world' }).click();
    await page.getByRole('dialog', { name: 'Unlock World' }).getByRole('button', { name: 'Confirm' }).click();
    await world.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete World' }).getByRole('button', { name: 'Delete' }).click();
    await world.waitFor({ state: 'detached' });
  }, 180_000);

  it('says a world of another server, or none, was not found', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto(`/server-settings/${HANGOUT}/worlds/images/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'World not found' }).waitFor();
    expect(await page.getByRole('button', { name: 'View World Atlases' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Email Required' }).count()).toBe(0);
  });
});
