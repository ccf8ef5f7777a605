import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Guest, GuestInfo } from '../../../lib/guests/api/guestInfo';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { profilePageAnswers } from '../testing/profileFixtures';

const GUESTS = '/api/users/guests/900';
const guest = (n: number): Guest => ({
  id: `g${n}`,
  guestUsername: `friend${n}`,
  guestVrcName: n === 1 ? 'FriendVR' : null,
  guestVrcId: n === 1 ? 'usr_friend' : null,
  guestProfilePicUrl: null,
});
const info = (slotsCount: number, guests: Guest[]): GuestInfo => ({
  slotsCount,
  primaryRoleName: 'Supporter',
  guestRoleName: 'Guest',
  guests,
});
const discordResults = {
  results: [
    { isDiscordUser: true, discordId: '501', discordName: 'Alice', discordIcon: null, hasLinkedVrc: true },
    { isDiscordUser: true, discordId: '502', discordName: 'Bob', discordIcon: null, hasLinkedVrc: false },
  ],
};

function setup(extra: Answers) {
  const answers: Answers = {
    ...profilePageAnswers(),
    ...extra,
  };
  const fetchMock = stubApi(answers);
  renderApp('/profile');
  return { answers, fetchMock };
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Setup Guests' }));
  return within(await screen.findByRole('dialog', { name: 'Neon Lounge' }));
}

describe('Setup Guests dialog', () => {
  it('shows the role chips, the used and free slots and the guest table', async () => {
    setup({ [`GET ${GUESTS}`]: { body: info(3, [guest(1)]) } });
    const dialog = await openDialog();
    expect(await dialog.findByText('Used 1/3 (Free 2)')).toBeTruthy();
    expect(dialog.getByText('Supporter')).toBeTruthy();
    expect(dialog.getByText('Guest')).toBeTruthy();
    const row = dialog.getByRole('row', { name: /friend1/ });
    expect(within(row).getByText('FriendVR')).toBeTruthy();
    expect(within(row).getByText('usr_friend')).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Add Guest' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('floors the free slots at 0 and disables Add Guest while the panel is closed', async () => {
    setup({ [`GET ${GUESTS}`]: { body: info(1, [guest(1), guest(2)]) } });
    const dialog = await openDialog();
    expect(await dialog.findByText('Used 2/1 (Free 0)')).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Add Guest' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the empty state without guests and the search hint before any search', async () => {
    setup({ [`GET ${GUESTS}`]: { body: info(2, []) } });
    const dialog = await openDialog();
    expect(await dialog.findByText('No guests found for this server.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Add Guest' }));
    expect(dialog.getByText('Run a search to see results.')).toBeTruthy();
    expect(dialog.getByRole('radio', { name: 'Discord Search' })).toBeTruthy();
    expect(dialog.getByRole('radio', { name: 'VRChat Search' })).toBeTruthy();
  });

  it('says once, in the dialog (no toast), that the guests cannot be loaded and why', async () => {
    setup({
      [`GET ${GUESTS}`]: { status: 403, body: { message: 'You cannot set up guests in this server.' } },
    });
    const dialog = await openDialog();
    const sentence = 'Failed to load guests. You cannot set up guests in this server.';
    expect(await dialog.findByText(sentence, {}, { timeout: 4000 })).toBeTruthy();
    expect(toastTexts()).toEqual([]);
  });

  it('searches Discord as you type, assigns a guest, then blocks assigning when no slot is left', async () => {
    const { answers, fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(1, []) },
      [`GET ${GUESTS}/search`]: { body: discordResults },
      [`POST ${GUESTS}/assign`]: { body: guest(3) },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    fireEvent.change(dialog.getByRole('textbox', { name: /Discord member/ }), { target: { value: '  ' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(callsTo(fetchMock, 'GET', `${GUESTS}/search`)).toHaveLength(0);
    expect(dialog.getByText('Run a search to see results.')).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: /Discord member/ }), { target: { value: 'al' } });
    const alice = await dialog.findByRole('listitem', { name: 'Alice' });
    const searches = callsTo(fetchMock, 'GET', `${GUESTS}/search`);
    expect(searches).toHaveLength(1);
    expect(new URL(searches[0].url).searchParams.get('memberQuery')).toBe('al');

    answers[`GET ${GUESTS}`] = { body: info(1, [{ ...guest(3), guestUsername: 'Alice' }]) };
    fireEvent.click(within(alice).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(toastTexts()).toContain('Guest assigned.'));
    expect(await callsTo(fetchMock, 'POST', `${GUESTS}/assign`)[0].json()).toEqual({ discordId: '501' });
    expect(await dialog.findByText('Used 1/1 (Free 0)')).toBeTruthy();
    expect(dialog.getByText('No free guest slots.')).toBeTruthy();
    // The panel is open, so Add Guest still closes it.
    expect((dialog.getByRole('button', { name: 'Add Guest' }) as HTMLButtonElement).disabled).toBe(false);

    // Alice is marked as just assigned; with no free slot Assign is disabled and says why.
    const aliceRow = dialog.getByRole('listitem', { name: 'Alice' });
    expect(within(aliceRow).getByText('Assigned')).toBeTruthy();
    expect((within(aliceRow).getByRole('button', { name: 'Assign' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    const bob = within(dialog.getByRole('listitem', { name: 'Bob' })).getByRole('button', {
      name: 'Assign',
    }) as HTMLButtonElement;
    expect(bob.disabled).toBe(true);
    expect(document.getElementById(bob.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'No free guest slots.',
    );
    fireEvent.click(bob);
    expect(callsTo(fetchMock, 'POST', `${GUESTS}/assign`)).toHaveLength(1);
  });

  it('sends one assignment however often Assign is clicked while it runs, and marks who was assigned', async () => {
    const { answers, fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(3, []) },
      [`GET ${GUESTS}/search`]: { body: discordResults },
      [`POST ${GUESTS}/assign`]: { body: guest(3) },
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (request: Request) => {
      if (new URL(request.url).pathname === `${GUESTS}/assign`) await gate;
      return answer(request);
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    fireEvent.change(dialog.getByRole('textbox', { name: /Discord member/ }), { target: { value: 'al' } });
    const alice = await dialog.findByRole('listitem', { name: 'Alice' });
    const assignAlice = within(alice).getByRole('button', { name: 'Assign' }) as HTMLButtonElement;
    const assignBob = within(dialog.getByRole('listitem', { name: 'Bob' })).getByRole('button', {
      name: 'Assign',
    }) as HTMLButtonElement;
    fireEvent.click(assignAlice);
    fireEvent.click(assignAlice);
    fireEvent.click(assignBob);
    await waitFor(() => expect(assignAlice.disabled).toBe(true));
    expect(assignBob.disabled).toBe(true);
    fireEvent.click(assignAlice);
    expect(callsTo(fetchMock, 'POST', `${GUESTS}/assign`)).toHaveLength(1);

    answers[`GET ${GUESTS}`] = { body: info(3, [{ ...guest(3), guestUsername: 'Alice' }]) };
    release();
    await waitFor(() => expect(toastTexts()).toContain('Guest assigned.'));
    expect(await within(alice).findByText('Assigned')).toBeTruthy();
    expect(toastTexts()).not.toContain('That user is already your guest.');
    await waitFor(() => expect(assignBob.disabled).toBe(false));
    expect(assignAlice.disabled).toBe(true);
    expect(within(dialog.getByRole('listitem', { name: 'Bob' })).queryByText('Assigned')).toBeNull();
    expect(callsTo(fetchMock, 'POST', `${GUESTS}/assign`)).toHaveLength(1);
  });

  it('merges quick keystrokes into one Discord search (300 ms debounce)', async () => {
    const { fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(2, []) },
      [`GET ${GUESTS}/search`]: { body: discordResults },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    const input = dialog.getByRole('textbox', { name: /Discord member/ });
    for (const value of ['a', 'al', 'ali']) {
      fireEvent.change(input, { target: { value } });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(callsTo(fetchMock, 'GET', `${GUESTS}/search`)).toHaveLength(0);
    await dialog.findByRole('listitem', { name: 'Alice' });
    const searches = callsTo(fetchMock, 'GET', `${GUESTS}/search`);
    expect(searches.map((r) => new URL(r.url).searchParams.get('memberQuery'))).toEqual(['ali']);
  });

  it("shows the server's message when assigning fails", async () => {
    setup({
      [`GET ${GUESTS}`]: { body: info(2, []) },
      [`GET ${GUESTS}/search`]: { body: discordResults },
      [`POST ${GUESTS}/assign`]: { status: 409, body: { message: 'That user is already your guest.' } },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    fireEvent.change(dialog.getByRole('textbox', { name: /Discord member/ }), { target: { value: 'al' } });
    fireEvent.click(
      within(await dialog.findByRole('listitem', { name: 'Alice' })).getByRole('button', { name: 'Assign' }),
    );
    await waitFor(() => expect(toastTexts()).toContain('That user is already your guest.'));
  });

  it('falls back to Discord search failed without a server message', async () => {
    setup({
      [`GET ${GUESTS}`]: { body: info(2, []) },
      [`GET ${GUESTS}/search`]: { status: 502, body: {} },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    fireEvent.change(dialog.getByRole('textbox', { name: /Discord member/ }), { target: { value: 'al' } });
    await waitFor(() => expect(toastTexts()).toContain('Discord search failed'));
  });

  it('limits VRChat searches to one per 5 s with a counting-down Cooldown button', async () => {
    const { fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(2, []) },
      [`GET ${GUESTS}/search`]: {
        body: { results: [{ isDiscordUser: false, vrcId: 'usr_v1', vrcName: 'VeeAr' }] },
      },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Add Guest' }));
    fireEvent.click(dialog.getByRole('radio', { name: 'VRChat Search' }));
    const search = () =>
      dialog.getByRole('button', { name: /^(Search|Cooldown \d+s)$/ }) as HTMLButtonElement;
    expect(search().disabled).toBe(true);
    fireEvent.change(dialog.getByRole('textbox', { name: /VRChat user/ }), { target: { value: '  ' } });
    expect(search().disabled).toBe(true);
    fireEvent.change(dialog.getByRole('textbox', { name: /VRChat user/ }), { target: { value: 've' } });
    expect(search().disabled).toBe(false);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(search());
    expect(search().textContent).toBe('Cooldown 5s');
    expect(search().disabled).toBe(true);
    expect(await dialog.findByRole('listitem', { name: 'VeeAr' })).toBeTruthy();
    expect(new URL(callsTo(fetchMock, 'GET', `${GUESTS}/search`)[0].url).searchParams.get('vrcQuery')).toBe(
      've',
    );

    act(() => vi.advanceTimersByTime(1000));
    expect(search().textContent).toMatch(/^Cooldown [34]s$/);
    act(() => vi.advanceTimersByTime(4100));
    expect(search().textContent).toBe('Search');
    expect(search().disabled).toBe(false);
    expect(callsTo(fetchMock, 'GET', `${GUESTS}/search`)).toHaveLength(1);
  });

  it('asks before unassigning a guest, then removes it', async () => {
    const { answers, fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(2, [guest(1)]) },
      [`DELETE ${GUESTS}/unassign/g1`]: { status: 204 },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Unassign friend1' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Unassign Guest' }));
    expect(callsTo(fetchMock, 'DELETE', `${GUESTS}/unassign/g1`)).toHaveLength(0);
    answers[`GET ${GUESTS}`] = { body: info(2, []) };
    fireEvent.click(confirm.getByRole('button', { name: 'Unassign Guest' }));
    await waitFor(() => expect(toastTexts()).toContain('Guest unassigned.'));
    expect(callsTo(fetchMock, 'DELETE', `${GUESTS}/unassign/g1`)).toHaveLength(1);
    expect(await dialog.findByText('No guests found for this server.')).toBeTruthy();
  });

  it('falls back to Failed to unassign guest and clears its data when closed', async () => {
    const { fetchMock } = setup({
      [`GET ${GUESTS}`]: { body: info(2, [guest(1)]) },
      [`DELETE ${GUESTS}/unassign/g1`]: { status: 500, body: {} },
    });
    const dialog = await openDialog();
    fireEvent.click(await dialog.findByRole('button', { name: 'Unassign friend1' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Unassign Guest' })).getByRole('button', {
        name: 'Unassign Guest',
      }),
    );
    await waitFor(() => expect(toastTexts()).toContain('Failed to unassign guest'));

    fireEvent.click(dialog.getByRole('button', { name: 'Add Guest' }));
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Neon Lounge' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const loads = callsTo(fetchMock, 'GET', GUESTS).length;
    // Hold the next load: with nothing cached the dialog must show its loader, not the old guests.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (request: Request) => {
      if (new URL(request.url).pathname === GUESTS) await gate;
      return answer(request);
    });
    const reopened = await openDialog();
    expect(await reopened.findByLabelText('Loading guests')).toBeTruthy();
    expect(reopened.queryByText('friend1')).toBeNull();
    release();
    expect(await reopened.findByText('friend1')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', GUESTS).length).toBe(loads + 1);
    expect(reopened.queryByRole('radio', { name: 'Discord Search' })).toBeNull();
  });
});
