import type { Page } from 'playwright-core';

/**
 * Chooses an auto role on the Discord tab (a Mantine Select: a click opens the list, a click chooses), waits
 * for the preview of what it would do, and saves it.
 */
export async function chooseAutoRole(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  const panel = page.getByRole('region', { name: 'Change preview' });
  // Save once the preview has answered (a sentence or 'No member is affected.').
  await panel
    .getByText(/will be|No member is affected\.|Could not work out/)
    .first()
    .waitFor();
  await panel.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Auto assign roles updated successfully.').waitFor();
}
