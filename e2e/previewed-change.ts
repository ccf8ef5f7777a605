import type { Page } from 'playwright-core';

/** Waits for the preview of a proposed change (a sentence, 'No member is affected.' or why not) and saves it. */
export async function saveThroughPreview(page: Page): Promise<void> {
  const panel = page.getByRole('region', { name: 'Change preview' });
  await panel
    .getByText(/will be|No member is affected\.|Could not work out/)
    .first()
    .waitFor();
  await panel.getByRole('button', { name: 'Save' }).click();
  await panel.waitFor({ state: 'detached' });
}

/**
 * Chooses an auto role on the Discord tab (a Mantine Select: a click opens the list, a click chooses), waits
 * for the preview of what it would do, and saves it.
 */
export async function chooseAutoRole(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await saveThroughPreview(page);
  await page.getByText('Auto assign roles updated successfully.').first().waitFor();
}
