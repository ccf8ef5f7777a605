import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { COPIED_MESSAGE, COPY_FAILED_MESSAGE } from './RepositoryAddress';
import { LISTING_FAILED_MESSAGE } from './VpmListingPage';

const LISTING_URL = 'https://vrclink.example/api/vpm/index.json';
const listing = {
  name: 'VRCLink',
  id: 'app.vrclink.vpm',
  url: LISTING_URL,
  author: 'VRCLink',
  packages: {
    'com.example.world-kit': {
      versions: {
        '2.0.0': {
          name: 'com.example.world-kit',
          displayName: 'Example World Kit',
          version: '2.0.0',
          description: 'Reads role data inside worlds.',
          url: 'https://vrclink.example/api/vpm/packages/com.example.world-kit-2.0.0.zip',
          zipSHA256: 'ab'.repeat(32),
        },
        '1.9.0': { name: 'com.example.world-kit', displayName: 'Old Kit', version: '1.9.0' },
      },
    },
  },
};

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('VPM listing page', () => {
  it('shows the repository address and the latest package from the listing', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/vpm/index.json': { body: listing } });
    renderApp('/vpm-listing');
    const address = await screen.findByLabelText('Repository address');
    expect((address as HTMLInputElement).value).toBe(LISTING_URL);
    const card = within(screen.getByRole('article', { name: 'Example World Kit' }));
    expect(card.getByRole('heading', { name: 'Example World Kit' })).toBeTruthy();
    expect(card.getByText('com.example.world-kit')).toBeTruthy();
    expect(card.getByText('v2.0.0')).toBeTruthy();
    expect(card.getByText('Reads role data inside worlds.')).toBeTruthy();
    expect(screen.queryByText('Old Kit')).toBeNull();
  });

  it('links Add to VCC to the Creator Companion with the encoded listing address', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/vpm/index.json': { body: listing } });
    renderApp('/vpm-listing');
    const link = await screen.findByRole('link', { name: 'Add to VCC' });
    expect(link.getAttribute('href')).toBe(`vcc://vpm/addRepo?url=${encodeURIComponent(LISTING_URL)}`);
  });

  it('copies the address to the clipboard and confirms with a toast', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    stubClipboard(writeText);
    stubApi({ ...loggedInAs('User'), 'GET /api/vpm/index.json': { body: listing } });
    renderApp('/vpm-listing');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy' }));
    const toast = await screen.findByText(COPIED_MESSAGE);
    expect(toast.closest('[data-testid="toast"]')?.getAttribute('data-type')).toBe('success');
    expect(writeText).toHaveBeenCalledWith(LISTING_URL);
  });

  it('reports a clipboard failure in an error toast', async () => {
    stubClipboard(() => Promise.reject(new DOMException('Denied', 'NotAllowedError')));
    stubApi({ ...loggedInAs('User'), 'GET /api/vpm/index.json': { body: listing } });
    renderApp('/vpm-listing');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy' }));
    const toast = await screen.findByText(COPY_FAILED_MESSAGE);
    expect(toast.closest('[data-testid="toast"]')?.getAttribute('data-type')).toBe('error');
  });

  it('shows the server message when the listing cannot be loaded', async () => {
    stubApi({
      ...loggedInAs('User'),
      'GET /api/vpm/index.json': { status: 503, body: { message: 'Listing is being rebuilt.' } },
    });
    renderApp('/vpm-listing');
    expect(await screen.findByText('Listing is being rebuilt.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add to VCC' })).toBeNull();
  });

  it('falls back to a generic message when the failure has none', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/vpm/index.json': { status: 500, body: {} } });
    renderApp('/vpm-listing');
    expect(await screen.findByText(LISTING_FAILED_MESSAGE, {}, { timeout: 5000 })).toBeTruthy();
  });
});
