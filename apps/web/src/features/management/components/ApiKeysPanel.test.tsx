import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';

const KEYS = '/api/guilds/900/api_keys';
const key = {
  id: '1c2b3d4e-0000-4000-8000-00000000000a',
  name: 'Board',
  createdOn: '2026-11-01T10:00:00.000Z',
  validUntil: '2026-12-01T10:00:00.000Z',
  permissions: ['ViewWorlds'],
  lastUsedAt: null,
};

async function setup(extra: Answers = {}) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: ['Admin'] }] },
    [`GET ${KEYS}`]: { body: { apiKeys: [key] } },
    ...extra,
  });
  renderApp('/server-settings/900/management/api-keys');
  // The first render loads the lazy pages: slow on a busy machine.
  await screen.findByRole('heading', { name: 'Access & API Keys' }, { timeout: 15_000 });
  return fetchMock;
}
async function openCreate() {
  fireEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
  return within(await screen.findByRole('dialog', { name: 'Create API Key' }));
}

describe('Access & API Keys', () => {
  it('lists keys with their permissions and never-used state', async () => {
    await setup();
    const row = within(await screen.findByRole('row', { name: /Board/ }));
    expect(row.getByText('ViewWorlds')).toBeTruthy();
    expect(row.getByText('Never')).toBeTruthy();
  }, 40_000); // the first render loads the lazy pages: slow on a busy machine

  it('asks for a name and a permission before creating, then shows the token once', async () => {
    const fetchMock = await setup({
      [`POST ${KEYS}/create`]: { body: { ...key, name: 'CI', token: 'vrcl_secret' } },
    });
    const dialog = await openCreate();
    expect(dialog.queryByRole('checkbox', { name: 'Administrator' })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));
    expect(dialog.getByText('Please enter a name for the API key.')).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: 'Name' }), { target: { value: ' CI ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));
    expect(dialog.getByText('Select at least one permission.')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', `${KEYS}/create`)).toHaveLength(0);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'ViewWorlds' }));
    // Valid for 30 days by default.
    const until = (dialog.getByLabelText('Valid until') as HTMLInputElement).value;
    expect(until).toBe(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));
    const created = within(await screen.findByRole('dialog', { name: 'API Key Created' }));
    expect(created.getByLabelText('API key token').textContent).toBe('vrcl_secret');
    const body = await callsTo(fetchMock, 'POST', `${KEYS}/create`)[0].json();
    expect(body).toMatchObject({ name: 'CI', permissions: ['ViewWorlds'] });
  });

  it('shows the server message when creating fails, and the delete failure text', async () => {
    await setup({
      [`POST ${KEYS}/create`]: { status: 409, body: { message: 'A server can have at most 25 API keys.' } },
      [`DELETE ${KEYS}/${key.id}`]: { status: 500, body: { message: 'boom' } },
    });
    const dialog = await openCreate();
    fireEvent.change(dialog.getByRole('textbox', { name: 'Name' }), { target: { value: 'x' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'ViewImages' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));
    expect(await dialog.findByText('A server can have at most 25 API keys.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Board' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete API Key' }));
    await waitFor(() => expect(toastTexts()).toContain('Failed to delete API key. boom'));
  });

  it('after Confirm deletes the key, focus goes to the page heading (its row went) and the toast says so', async () => {
    await setup();
    const opener = await screen.findByRole('button', { name: 'Delete Board' });
    opener.focus();
    fireEvent.click(opener);
    const confirm = await screen.findByRole('button', { name: 'Delete API Key' });
    // From now on the key is gone on the server.
    stubApi({
      ...loggedInAs('User'),
      'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: ['Admin'] }] },
      [`GET ${KEYS}`]: { body: { apiKeys: [] } },
      [`DELETE ${KEYS}/${key.id}`]: { status: 204 },
    });
    confirm.focus();
    fireEvent.click(confirm);
    await waitFor(() => expect(toastTexts()).toContain('API key deleted.'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Board' })).toBeNull());
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H1'));
    // The toasts are a polite live region: the result is announced.
    expect(screen.getByTestId('toast').closest('[role="status"]')).toBeTruthy();
  });

  it('says when the keys cannot be loaded', async () => {
    await setup({ [`GET ${KEYS}`]: { status: 403, body: { message: 'no' } } });
    expect(await screen.findByText('Failed to load API keys.', {}, { timeout: 4000 })).toBeTruthy();
  });
});
