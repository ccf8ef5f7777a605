import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';

const guild = { id: '900', name: 'Neon Lounge', icon: null, permissions: ['ViewGuild'] };
const member = (n: number, linked = false) => ({
  id: `60${n}`,
  username: `member${n}`,
  avatar: null,
  vrcName: linked ? 'Nova' : null,
  vrcId: linked ? 'usr_nova' : null,
  linkCount: linked ? 2 : 0,
  linkLastChanged: linked ? '2026-01-02T03:04:05.000Z' : null,
  isVerified: linked,
  ageVerified: linked ? 'Plus18' : 'Unverified',
});

function setup(extra: Answers = {}) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [guild] },
    'GET /api/members/900': {
      body: { results: [member(1, true), member(2)], totalCount: 30, totalPages: 2, linkedOnly: false },
    },
    'GET /api/members/900/601': {
      body: { id: '601', discordRoles: [{ id: 'r1', name: 'DJ', color: 0xe67e22, position: 3 }] },
    },
    ...extra,
  });
  renderApp('/server-settings/900/members');
  return fetchMock;
}
const searches = (fetchMock: ReturnType<typeof setup>) =>
  callsTo(fetchMock, 'GET', '/api/members/900').map((r) => Object.fromEntries(new URL(r.url).searchParams));

describe('Members tab', () => {
  it('lists members with the total and the page, Previous disabled on page 1', async () => {
    const fetchMock = setup();
    // The first render of the file also loads the lazy route: allowed longer on a loaded machine.
    expect(await screen.findByText('Discord Member Search', {}, { timeout: 15_000 })).toBeTruthy();
    expect(await screen.findByText('member1')).toBeTruthy();
    expect(screen.getByText('Total: 30')).toBeTruthy();
    // The pager is above the list and again below it (its buttons named apart: no two share a name).
    expect(screen.getAllByText('Page 1 of 2')).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(searches(fetchMock).at(-1)?.page).toBe('2'));
    expect(await screen.findAllByText('Page 2 of 2')).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(searches(fetchMock).at(-1)?.page).toBe('1'));
  });

  it('shows each member in a table row with name, avatar and the Linked / Verified / 18+ badges inline', async () => {
    setup();
    await screen.findAllByText('member1', {}, { timeout: 15_000 });
    const linked = within(screen.getByRole('row', { name: 'member1' }));
    expect(linked.getByText('Nova')).toBeTruthy();
    expect(linked.getByText('usr_nova')).toBeTruthy();
    expect(linked.getByText('Linked')).toBeTruthy();
    expect(linked.getByText('Verified')).toBeTruthy();
    expect(linked.getByText('18+')).toBeTruthy();
    // The spec's More/Less toggle shows the link's details in words; its name says whose, so each row's is unique.
    const toggles = screen.getAllByRole('button', { name: /^More about / }).map((b) => b.textContent);
    expect(toggles.every((text) => text === 'More')).toBe(true);
    expect(screen.getByRole('button', { name: 'More about member2' })).toBeTruthy();
    fireEvent.click(linked.getByRole('button', { name: 'More about member1' }));
    const details = within(screen.getByRole('region', { name: 'Link details of member1' }));
    expect(details.getByText('VRC ID')).toBeTruthy();
    expect(details.getAllByText('usr_nova').length).toBe(1);
    expect(details.getByText('Yes')).toBeTruthy();
    expect(details.getByText('18+')).toBeTruthy();
    fireEvent.click(linked.getByRole('button', { name: 'Less about member1' }));
    expect(screen.queryByRole('region', { name: 'Link details of member1' })).toBeNull();
    const other = within(screen.getByRole('row', { name: 'member2' }));
    expect(other.getByText('Not linked')).toBeTruthy();
    expect(other.getByText('Never')).toBeTruthy();
    expect(other.queryByText('18+')).toBeNull();
  });

  it('filters on the server by linked, unlinked and unverified, back on page 1', async () => {
    const fetchMock = setup();
    await screen.findByText('member1');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(searches(fetchMock).at(-1)?.page).toBe('2'));
    for (const [label, filter] of [
      ['Unlinked', 'unlinked'],
      ['Unverified', 'unverified'],
      ['Linked', 'linked'],
    ]) {
      fireEvent.click(screen.getByRole('radio', { name: label }));
      await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ filter, page: '1' }));
    }
  });

  it('names the Search By choices in words', async () => {
    setup();
    await screen.findByText('member1');
    const select = screen.getByRole('combobox', { name: 'Search By' }) as HTMLInputElement;
    expect(select.value).toBe('Discord name');
    fireEvent.click(select);
    for (const label of ['Discord ID', 'Discord name', 'VRChat ID', 'VRChat name'])
      expect(await screen.findByRole('option', { name: label, hidden: true })).toBeTruthy();
  });

  it('searches by the chosen field after 2 characters, and not for 1', async () => {
    const fetchMock = setup();
    await screen.findByText('member1');
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'n' } });
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'no' } });
    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({ search: 'no', searchBy: 'DiscordName', page: '1' }),
    );
    expect(searches(fetchMock).some((q) => q.search === 'n')).toBe(false);
  });

  it('opens Member Details with the name, Discord ID, VRChat account and its link, age status and roles', async () => {
    setup();
    // A button that looks like one (not a name styled as a link), saying it opens a dialog.
    const open = await screen.findByRole('button', { name: 'Details of member1' });
    expect(open.textContent).toBe('Details');
    expect(open.getAttribute('aria-haspopup')).toBe('dialog');
    expect(open.closest('a')).toBeNull();
    fireEvent.click(open);
    const dialog = within(await screen.findByRole('dialog', { name: 'Member Details' }));
    expect(dialog.getByText('member1')).toBeTruthy();
    expect(dialog.getByText('Discord ID: 601')).toBeTruthy();
    expect(dialog.getByRole('link', { name: 'Nova' }).getAttribute('href')).toBe(
      'https://vrchat.com/home/user/usr_nova',
    );
    expect(dialog.getByText('Age Verified').nextElementSibling?.textContent).toBe('18+');
    expect(await dialog.findByText('DJ')).toBeTruthy();
  });

  it('never shows an unproven link as 18+: its age is said not to be verified', async () => {
    // Even should the server answer the account's own 18+ for an unproven link, the tab does not show it.
    const unproven = { ...member(3, true), username: 'claimant', isVerified: false };
    setup({
      'GET /api/members/900': {
        body: { results: [unproven], totalCount: 1, totalPages: 1, linkedOnly: false },
      },
      'GET /api/members/900/603': { body: { id: '603', discordRoles: [] } },
    });
    await screen.findAllByText('claimant', {}, { timeout: 15_000 });
    const row = within(screen.getByRole('row', { name: 'claimant' }));
    expect(row.getByText('Unverified')).toBeTruthy();
    expect(row.queryByText('18+')).toBeNull();
    fireEvent.click(row.getByRole('button', { name: 'More about claimant' }));
    const details = within(screen.getByRole('region', { name: 'Link details of claimant' }));
    expect(details.getByText('Not verified (ownership not proven)')).toBeTruthy();
    expect(details.queryByText('18+')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Details of claimant' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Member Details' }));
    expect(dialog.getByText('Age Verified').nextElementSibling?.textContent).toBe(
      'Not verified (ownership not proven)',
    );
  });

  it('shows the empty state', async () => {
    setup({
      'GET /api/members/900': { body: { results: [], totalCount: 0, totalPages: 1, linkedOnly: false } },
    });
    expect(await screen.findByText('No members found.')).toBeTruthy();
    expect(screen.queryByText('Showing linked members only')).toBeNull();
  });

  it('says it shows linked members only when the bot lacks the Server Members intent', async () => {
    setup({
      'GET /api/members/900': {
        body: { results: [member(1, true)], totalCount: 1, totalPages: 1, linkedOnly: true },
      },
    });
    expect(await screen.findByText('Showing linked members only')).toBeTruthy();
    expect(screen.getByText(/does not have Discord's Server Members intent/)).toBeTruthy();
  });
});
