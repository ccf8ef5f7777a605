import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import {
  LOBBY_ID,
  role,
  WORLDS,
  WORLDS_PATH,
  worldFixture,
  worldsTabAnswers,
} from '../testing/worldFixtures';

const ROLES = `${WORLDS}/${LOBBY_ID}/roles`;
const admin = role('r-admin', 'Admin', 0xe74c3c, 6);
const mod = role('r-mod', 'Moderator', 0x3498db, 5);
const verified = role('r-verified', 'Verified', 0x2ecc71, 3);

async function setup(extra: Answers = {}, permissions?: Parameters<typeof worldsTabAnswers>[0]) {
  giveLayout();
  const answers: Answers = { ...worldsTabAnswers(permissions), ...extra };
  const fetchMock = stubApi(answers);
  renderApp(WORLDS_PATH);
  await screen.findByRole('article', { name: 'Hangout Lobby' });
  return { answers, fetchMock };
}

const picker = (name: string) => within(screen.getByRole('group', { name }));
const chipsOf = (name: string) =>
  picker(name)
    .queryAllByRole('group')
    .filter((b) => b.getAttribute('aria-roledescription') === 'sortable');
const chipNames = (name: string) => chipsOf(name).map((c) => c.textContent);
const sentLists = (fetchMock: Parameters<typeof callsTo>[0]) =>
  Promise.all(callsTo(fetchMock, 'POST', ROLES).map((r) => r.json()));

/**
 * jsdom has no layout: give every element a box on screen (else the role list counts as scrolled out of
 * view and stays hidden) and lay the chips of each picker out in a row, 50 px wide with 10 px gaps.
 */
function giveLayout() {
  vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(1024);
  vi.spyOn(document.documentElement, 'clientHeight', 'get').mockReturnValue(768);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    if (!this.hasAttribute('data-role-chip'))
      return DOMRect.fromRect({ x: 10, y: 10, width: 200, height: 30 });
    const row = [...(this.parentElement?.querySelectorAll(':scope > [data-role-chip]') ?? [])];
    return DOMRect.fromRect({ x: row.indexOf(this) * 60, y: 0, width: 50, height: 20 });
  });
}

const tick = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('role pickers', () => {
  it('adds a role from the list (with its colour) and saves the whole ordered list', async () => {
    const { fetchMock } = await setup({
      [`POST ${ROLES}`]: { body: worldFixture({ discordEncodeRoles: [admin, mod, verified] }) },
    });
    fireEvent.click(picker('Discord Encode Roles').getByRole('combobox', { name: 'Discord Encode Roles' }));
    const options = await screen.findAllByRole('option');
    // Chosen roles are not offered again.
    expect(options.map((o) => o.textContent)).toEqual(['Verified']);
    expect(options[0].querySelector('.mantine-ColorSwatch-colorOverlay')?.getAttribute('style')).toContain(
      'rgb(46, 204, 113)',
    );
    fireEvent.click(options[0]);
    await waitFor(() =>
      expect(chipNames('Discord Encode Roles')).toEqual(['Admin', 'Moderator', 'Verified']),
    );
    expect(await sentLists(fetchMock)).toEqual([{ discordEncodeRoles: ['r-admin', 'r-mod', 'r-verified'] }]);
  });

  it('offers the group roles in the group pickers', async () => {
    await setup();
    fireEvent.click(picker('Group Always Encode Roles').getByRole('combobox'));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Owner', 'Event Host']);
  });

  it('removes a role with its X or the Delete key, keeping a deleted role removable', async () => {
    const { fetchMock } = await setup({ [`POST ${ROLES}`]: { body: worldFixture() } });
    const [adminChip] = chipsOf('Discord Encode Roles');
    fireEvent.click(within(adminChip).getByRole('button', { hidden: true }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', ROLES)).toHaveLength(1));
    fireEvent.keyDown(chipsOf('Discord Always Encode Roles')[0], { key: 'Delete', code: 'Delete' });
    await waitFor(() => expect(callsTo(fetchMock, 'POST', ROLES)).toHaveLength(2));
    expect(await sentLists(fetchMock)).toEqual([
      { discordEncodeRoles: ['r-mod'] },
      { discordAlwaysEncodeRoles: [] },
    ]);
  });

  it('reorders with the keyboard: Space picks a chip up, arrows move it 25 px a step, Space drops it', async () => {
    const { fetchMock } = await setup({
      [`POST ${ROLES}`]: { body: worldFixture({ discordEncodeRoles: [mod, admin] }) },
    });
    const [adminChip] = chipsOf('Discord Encode Roles');
    act(() => adminChip.focus());
    fireEvent.keyDown(adminChip, { key: ' ', code: 'Space' });
    await tick();
    // Centres at 25 and 85: two steps (75) are closer to Admin's own place, three (100) pass Moderator's.
    for (let step = 0; step < 3; step++) {
      fireEvent.keyDown(adminChip, { key: 'ArrowRight', code: 'ArrowRight' });
      await tick();
    }
    fireEvent.keyDown(adminChip, { key: ' ', code: 'Space' });
    await waitFor(() => expect(chipNames('Discord Encode Roles')).toEqual(['Moderator', 'Admin']));
    expect(await sentLists(fetchMock)).toEqual([{ discordEncodeRoles: ['r-mod', 'r-admin'] }]);
  });

  it('leaves the order alone when a chip is dropped back in its place', async () => {
    const { fetchMock } = await setup();
    const [adminChip] = chipsOf('Discord Encode Roles');
    act(() => adminChip.focus());
    fireEvent.keyDown(adminChip, { key: ' ', code: 'Space' });
    await tick();
    fireEvent.keyDown(adminChip, { key: 'ArrowRight', code: 'ArrowRight' });
    await tick();
    fireEvent.keyDown(adminChip, { key: ' ', code: 'Space' });
    await tick();
    expect(chipNames('Discord Encode Roles')).toEqual(['Admin', 'Moderator']);
    expect(callsTo(fetchMock, 'POST', ROLES)).toHaveLength(0);
  });

  it("puts the list back and says 'Failed to update world settings' when saving fails", async () => {
    await setup({ [`POST ${ROLES}`]: { status: 400, body: { message: 'Link a VRChat group first.' } } });
    fireEvent.keyDown(chipsOf('Group Encode Roles')[0], { key: 'Delete', code: 'Delete' });
    expect(await screen.findByText('Failed to update world settings')).toBeTruthy();
    expect(screen.getByText('Link a VRChat group first.')).toBeTruthy();
    expect(toastTexts()).toEqual([]);
    await waitFor(() => expect(chipNames('Group Encode Roles')).toEqual(['Owner']));
  });

  it('is read-only without ManageWorlds: no list, no remove, no dragging', async () => {
    const { fetchMock } = await setup({}, ['ViewWorlds']);
    const [adminChip] = chipsOf('Discord Encode Roles');
    expect(within(adminChip).queryByRole('button', { hidden: true })).toBeNull();
    expect(adminChip.getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(adminChip, { key: 'Delete', code: 'Delete' });
    const field = picker('Discord Encode Roles').getByRole('combobox') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    fireEvent.click(field);
    await tick();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(callsTo(fetchMock, 'POST', ROLES)).toHaveLength(0);
  });
});
