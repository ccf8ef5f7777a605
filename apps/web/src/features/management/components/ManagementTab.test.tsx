import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { guildPermissions } from '../../../lib/guild-access/permissions';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';

const all: string[] = [...guildPermissions];
const guild = (permissions: string[]) => ({ id: '900', name: 'Neon Lounge', icon: null, permissions });
const PERMS = '/api/guilds/permissions/900';
const users = [
  { userId: '501', username: 'alice', avatar: null, permissions: ['Admin'], implicit: false, reason: null },
  {
    userId: '502',
    username: null,
    avatar: null,
    permissions: ['ViewWorlds', 'ManageImages'],
    implicit: false,
    reason: null,
  },
  {
    userId: '503',
    username: 'owner_olga',
    avatar: null,
    permissions: ['Admin'],
    implicit: true,
    reason: 'Server owner',
  },
  {
    userId: '504',
    username: 'manager_max',
    avatar: null,
    permissions: ['Admin'],
    implicit: true,
    reason: 'Manage Server',
  },
];

function setup(extra: Answers = {}, permissions = all, path = '/server-settings/900/management/permissions') {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [guild(permissions)] },
    [`GET ${PERMS}`]: { body: { users } },
    ...extra,
  });
  renderApp(path);
  return fetchMock;
}

// The first render loads the lazy pages: slow on a busy machine.
const openPermissions = () => screen.findByRole('table', {}, { timeout: 15_000 });

describe('Management tab: sections', () => {
  it('lists the four sections as links, opens the first and marks it current', async () => {
    setup(
      { 'GET /api/guilds/logging/900/config': { status: 500, body: { message: 'Internal server error.' } } },
      all,
      '/server-settings/900/management',
    );
    const nav = within(
      await screen.findByRole('navigation', { name: 'Management sections' }, { timeout: 15_000 }),
    );
    expect(nav.getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Logging to Discord',
      'Audit Log',
      'Admins & Permissions',
      'Access & API Keys',
    ]);
    await waitFor(() =>
      expect(nav.getByRole('link', { name: 'Logging to Discord' }).getAttribute('aria-current')).toBe('page'),
    );
    expect(nav.getByRole('link', { name: 'Audit Log' }).getAttribute('aria-current')).toBeNull();
    expect(nav.getByRole('link', { name: 'Audit Log' }).getAttribute('href')).toBe(
      '/server-settings/900/management/audit-log',
    );
    expect(screen.getByRole('region', { name: 'Logging to Discord' })).toBeTruthy();
  }, 40_000); // the first render loads the lazy pages: slow on a busy machine

  it('opens the section in the address, names it once as a heading, and moves with the links', async () => {
    setup(
      {
        'GET /api/groups/audit_log/900': { body: { auditLogs: [], totalCount: 0, eventTypes: [] } },
      },
      all,
      '/server-settings/900/management/audit-log',
    );
    // The first render loads the lazy pages: slow on a busy machine.
    expect(await screen.findByText('No audit logs found.', {}, { timeout: 15_000 })).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Management sections' }));
    expect(nav.getByRole('link', { name: 'Audit Log' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getAllByRole('heading', { name: 'Audit Log' })).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: /Search Logs|Admins & Permissions/ })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(nav.getByRole('link', { name: 'Admins & Permissions' }));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.getAllByRole('heading', { name: 'Admins & Permissions' })).toHaveLength(1);
    expect(nav.getByRole('link', { name: 'Admins & Permissions' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Audit Log' }).getAttribute('aria-current')).toBeNull();
  });

  it('says that only administrators may use it, with no sections to open', async () => {
    setup({}, ['ViewWorlds', 'WorldPreview'], '/server-settings/900/management/permissions');
    expect(
      await screen.findByText(/^Only administrators can configure logging, read the audit log/),
    ).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Management sections' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('Management tab: Admins & Permissions', () => {
  it('lists granted users, Admin shown as Administrator, the id when the name is unknown', async () => {
    setup();
    const table = await openPermissions();
    const alice = within(table).getByRole('row', { name: /alice/ });
    expect(within(alice).getByText('Administrator')).toBeTruthy();
    const other = within(table).getByRole('row', { name: /502/ });
    expect(within(other).getByText('ViewWorlds')).toBeTruthy();
    expect(within(other).getByText('ManageImages')).toBeTruthy();
  });

  it('shows permission names in their own case, not as all-caps badges', async () => {
    setup();
    const table = await openPermissions();
    const other = within(table).getByRole('row', { name: /502/ });
    for (const name of ['ViewWorlds', 'ManageImages'])
      expect(within(other).getByText(name).closest('.mantine-Badge-root')?.getAttribute('style')).toContain(
        'text-transform: none',
      );
  });

  it('lists the entries as cards on a phone, so nothing scrolls sideways', async () => {
    // A phone's width; put back after (the shared matchMedia stub is a mock that restoring does not reset).
    const real = window.matchMedia;
    window.matchMedia = (query: string) =>
      ({
        matches: query === '(max-width: 36em)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
      }) as unknown as MediaQueryList;
    onTestFinished(() => {
      window.matchMedia = real;
    });
    setup();
    const list = await screen.findByRole('list', { name: 'Admins' });
    expect(screen.queryByRole('table')).toBeNull();
    const alice = within(within(list).getByRole('listitem', { name: 'alice' }));
    expect(alice.getByText('Administrator')).toBeTruthy();
    expect(alice.getByRole('button', { name: 'Edit alice' })).toBeTruthy();
    const olga = within(within(list).getByRole('listitem', { name: 'owner_olga' }));
    expect(olga.getByText('Server owner')).toBeTruthy();
    expect(olga.getByText('Set on Discord')).toBeTruthy();
  });

  it('says under each permission what it lets its holder do', async () => {
    setup();
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Admin' }));
    const described = (name: string) => {
      const box = dialog.getByRole('checkbox', { name });
      const ids = box.getAttribute('aria-describedby')?.split(' ') ?? [];
      return ids.map((id) => document.getElementById(id)?.textContent).join(' ');
    };
    expect(described('ViewGuild')).toBe("See this server's settings and search its members.");
    expect(described('Administrator')).toMatch(/^Everything below/);
    for (const name of ['WorldPreview', 'ViewWorlds', 'ManageWorlds', 'ViewImages', 'ManageImages'])
      expect(described(name).length).toBeGreaterThan(20);
  });

  it('lists the admins Discord makes as read-only rows with the reason', async () => {
    setup();
    const table = await openPermissions();
    const owner = within(table).getByRole('row', { name: /owner_olga/ });
    expect(within(owner).getByText('Administrator')).toBeTruthy();
    expect(within(owner).getByText('Server owner')).toBeTruthy();
    expect(within(owner).queryByRole('button')).toBeNull();
    const manager = within(table).getByRole('row', { name: /manager_max/ });
    expect(within(manager).getByText('Manage Server')).toBeTruthy();
    expect(within(manager).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    expect(screen.queryByText('Nobody has been granted permissions yet.')).toBeNull();
    expect(within(table).getByRole('button', { name: 'Edit alice' })).toBeTruthy();
  });

  it('refuses to untick the last permission and says to use the delete (X)', async () => {
    const fetchMock = setup();
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Edit alice' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Administrator' }));
    expect(dialog.getByText('Use the delete (X) to remove the last permission entry.')).toBeTruthy();
    expect((dialog.getByRole('checkbox', { name: 'Administrator' }) as HTMLInputElement).checked).toBe(true);
    expect(callsTo(fetchMock, 'POST', `${PERMS}/501`)).toHaveLength(0);
  });

  it('saves an edit with the ticked permissions', async () => {
    const fetchMock = setup({
      [`POST ${PERMS}/502`]: {
        body: { userId: '502', permissions: ['ViewWorlds'], effective: ['ViewWorlds'] },
      },
    });
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Edit 502' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'ManageImages' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', `${PERMS}/502`)).toHaveLength(1));
    expect(await callsTo(fetchMock, 'POST', `${PERMS}/502`)[0].json()).toEqual({
      permissions: ['ViewWorlds'],
    });
  });

  it('shows the failure text when saving fails', async () => {
    setup({ [`POST ${PERMS}/502`]: { status: 500, body: { message: 'Internal server error.' } } });
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Edit 502' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'ManageImages' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(toastTexts()).toContain('Failed to update permissions. Internal server error.'),
    );
  });

  it('adds an admin: Save needs a chosen member and a permission', async () => {
    const fetchMock = setup({
      'GET /api/members/900': {
        body: {
          results: [
            {
              id: '777',
              username: 'newbie',
              avatar: null,
              vrcName: null,
              vrcId: null,
              linkCount: 0,
              linkLastChanged: null,
              isVerified: false,
              ageVerified: 'Unverified',
            },
          ],
          totalCount: 1,
          totalPages: 1,
        },
      },
      [`POST ${PERMS}/777`]: {
        body: { userId: '777', permissions: ['ViewGuild'], effective: ['ViewGuild'] },
      },
    });
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Admin' }));
    const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(dialog.getByRole('textbox', { name: 'User' }), { target: { value: 'new' } });
    fireEvent.click(await dialog.findByRole('radio', { name: 'newbie (777)' }, { timeout: 3000 }));
    expect(save.disabled).toBe(true);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'ViewGuild' }));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', `${PERMS}/777`)).toHaveLength(1));
    const search = callsTo(fetchMock, 'GET', '/api/members/900')[0];
    expect(new URL(search.url).searchParams.get('search')).toBe('new');
  });

  it('deletes an entry after confirmation, and says so when it fails', async () => {
    const fetchMock = setup({
      [`DELETE ${PERMS}/501`]: { status: 500, body: { message: 'Internal server error.' } },
    });
    await openPermissions();
    fireEvent.click(screen.getByRole('button', { name: 'Delete alice' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Permissions' }));
    await waitFor(() =>
      expect(toastTexts()).toContain('Failed to delete user permissions. Internal server error.'),
    );
    expect(callsTo(fetchMock, 'DELETE', `${PERMS}/501`)).toHaveLength(1);
  });

  it('says when the permissions cannot be loaded', async () => {
    setup({
      [`GET ${PERMS}`]: { status: 403, body: { message: 'You need the Admin permission in this server.' } },
    });
    expect(await screen.findByText('Failed to load permissions.', {}, { timeout: 4000 })).toBeTruthy();
  });
});
