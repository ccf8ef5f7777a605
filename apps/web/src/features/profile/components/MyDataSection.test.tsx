import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { profilePageAnswers } from '../testing/profileFixtures';

const exported = { exportedAt: '2026-11-27T04:00:00.000Z', account: { id: '42', username: 'neon' } };

describe('profile: My Data', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads the export as a JSON file named by the day', async () => {
    const fetchMock = stubApi({
      ...profilePageAnswers(),
      'GET /api/users/profile/export': { body: exported },
    });
    const created = vi.fn((_blob: Blob) => 'blob:my-data');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Download My Data' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0].download).toBe('vrclink-my-data-2026-11-27.json');
    expect(clicks[0].href).toBe('blob:my-data');
    expect(JSON.parse(await (created.mock.calls[0][0] as Blob).text())).toEqual(exported);
    expect(callsTo(fetchMock, 'GET', '/api/users/profile/export')).toHaveLength(1);
  });

  it('deletes the account only once the username is typed, then is signed out at /', async () => {
    const answers: Answers = {
      ...profilePageAnswers(),
      'DELETE /api/users/profile': { body: { status: 'Deleted', message: 'Your account was deleted.' } },
    };
    const fetchMock = stubApi(answers);
    const { router } = renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete My Account' }));
    const dialog = within(await screen.findByRole('dialog'));
    const submit = dialog.getByRole('button', { name: 'Delete My Account' });
    const input = dialog.getByLabelText('Type your username (neon) to confirm');
    fireEvent.change(input, { target: { value: 'Neon' } });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(input);
    expect(callsTo(fetchMock, 'DELETE', '/api/users/profile')).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'neon' } });
    // Signed out from here on: the server answers 401 for the user.
    answers['GET /api/user'] = { status: 401, body: { message: 'Not logged in.' } };
    fireEvent.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const [request] = callsTo(fetchMock, 'DELETE', '/api/users/profile');
    expect(await request.json()).toEqual({ username: 'neon' });
    await waitFor(() => expect(toastTexts()).toContain('Your account was deleted.'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Profile' })).toBeNull());
  });

  it('shows the server’s sentence when the deletion is refused, and stays', async () => {
    stubApi({
      ...profilePageAnswers(),
      'DELETE /api/users/profile': {
        status: 503,
        body: { message: 'Your account could not be deleted right now. Try again in a minute.' },
      },
    });
    const { router } = renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete My Account' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Type your username (neon) to confirm'), {
      target: { value: 'neon' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Delete My Account' }));
    expect(
      await dialog.findByText('Your account could not be deleted right now. Try again in a minute.'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
  });
});
