import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../app/queryClient';
import { theme } from '../../../app/theme';
import { stubApi } from '../../../testing/renderApp';
import { ChangePreviewPanel } from './ChangePreviewPanel';

const preview = { effects: [], wouldHold: 0, complete: true, warnings: [] };

/** A setting whose change is previewed: the select proposes, the panel's Save or Cancel closes it. */
function Setting() {
  const [proposed, setProposed] = useState(false);
  return (
    <>
      <select aria-label="Linked Users Role" onChange={() => setProposed(true)}>
        <option>None</option>
        <option>Admin</option>
      </select>
      <button type="button">Elsewhere</button>
      {proposed && (
        <ChangePreviewPanel
          guildId="900"
          change={{ kind: 'autoRoles', autoAssignRoles: { linkedRoleId: '11' } }}
          title="Linked Users Role: none → Admin"
          saving={false}
          onSave={() => setProposed(false)}
          onCancel={() => setProposed(false)}
        />
      )}
    </>
  );
}

function renderSetting() {
  stubApi({ 'POST /api/guilds/900/sync/preview': { body: preview } });
  render(
    <MantineProvider theme={theme} forceColorScheme="dark">
      <QueryClientProvider client={createQueryClient()}>
        <Setting />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const select = screen.getByRole('combobox', { name: 'Linked Users Role' });
  select.focus();
  fireEvent.change(select, { target: { value: 'Admin' } });
  return select;
}

describe('ChangePreviewPanel', () => {
  it.each(['Save', 'Cancel'])(
    'gives focus back to the control that proposed the change after %s',
    async (name) => {
      const select = renderSetting();
      const button = await screen.findByRole('button', { name });
      await screen.findByText('No member is affected.');
      button.focus();
      fireEvent.click(button);
      await waitFor(() => expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(select));
    },
  );

  it('leaves focus alone when it went elsewhere', async () => {
    renderSetting();
    const save = await screen.findByRole('button', { name: 'Save' });
    // Save is enabled once the preview has arrived.
    await screen.findByText('No member is affected.');
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull());
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(document.activeElement).toBe(elsewhere);
  });
});
