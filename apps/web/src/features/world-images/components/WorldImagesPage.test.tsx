import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { editorAnswers, GUILD, GUILD_ID, IMAGES, PAGE_PATH, SLOTS, WORLD_ID } from '../testing/fixtures';

const withoutEmail = (extra = {}) => {
  const answers = editorAnswers();
  const settings = answers[`GET ${GUILD}`]?.body as Record<string, unknown>;
  return { ...answers, [`GET ${GUILD}`]: { body: { ...settings, contactEmail: null } }, ...extra };
};

describe('World Images screen', { timeout: 40_000 }, () => {
  it('asks for the contact e-mail first, refuses a bad one, then opens the editor', async () => {
    const fetchMock = stubApi(
      withoutEmail({
        [`POST ${GUILD}/contact`]: { body: { contactEmail: 'owner@hangout.example' } },
      }),
    );
    renderApp(PAGE_PATH);
    // The first render also loads the page's chunk.
    expect(await screen.findByRole('heading', { name: 'Email Required' }, { timeout: 10_000 })).toBeTruthy();
    expect(
      screen.getByText(/so that we, the provider, can contact you about issues or reports/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'View World Atlases' })).toBeNull();

    const input = screen.getByLabelText(/Contact e-mail/);
    fireEvent.change(input, { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', `${GUILD}/contact`)).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' owner@hangout.example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('button', { name: 'View World Atlases' })).toBeTruthy();
    const [sent] = callsTo(fetchMock, 'POST', `${GUILD}/contact`);
    expect(await sent?.json()).toEqual({ email: 'owner@hangout.example' });
    expect(await screen.findByRole('article', { name: 'Slot 0' })).toBeTruthy();
  });

  it("shows the server's refusal of the e-mail under the field", async () => {
    stubApi(
      withoutEmail({
        [`POST ${GUILD}/contact`]: { status: 400, body: { message: 'Please enter a valid email address.' } },
      }),
    );
    renderApp(PAGE_PATH);
    fireEvent.change(await screen.findByLabelText(/Contact e-mail/), { target: { value: 'a@b.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Email Required' })).toBeTruthy();
  });

  it('explains who may enter the e-mail to someone without ManageImages', async () => {
    stubApi({
      ...withoutEmail(),
      ...editorAnswers(['ViewImages']),
      [`GET ${GUILD}`]: withoutEmail()[`GET ${GUILD}`]!,
    });
    renderApp(PAGE_PATH);
    expect(await screen.findByRole('heading', { name: 'Email Required' })).toBeTruthy();
    expect(screen.getByText(/ManageImages permission in this server must enter it/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('shows the world name, the slots and the server images', async () => {
    stubApi(editorAnswers());
    renderApp(PAGE_PATH);
    const entrance = within(await screen.findByRole('article', { name: 'Slot 0' }));
    expect(screen.getByText('Hangout Lobby')).toBeTruthy();
    // A long world name beside Back truncates; Back itself never shrinks (it was squeezed to "← I").
    expect(screen.getByRole('button', { name: 'Back' }).style.flexShrink).toBe('0');
    expect(entrance.getByText('Slot ID: 0')).toBeTruthy();
    expect(entrance.getByText('Entrance')).toBeTruthy();
    expect(entrance.getByText('Image Name: poster-1.png')).toBeTruthy();
    expect(entrance.getByText('Width: 512 px')).toBeTruthy();
    expect(entrance.getByText('Height: 384 px')).toBeTruthy();
    expect((entrance.getByRole('img') as HTMLImageElement).src).toContain(
      `/api/world_images/slot_image/${GUILD_ID}/${WORLD_ID}/0/preview`,
    );
    expect((entrance.getByLabelText('Max Dimension') as HTMLInputElement).value).toBe('512 px');
    const empty = within(screen.getByRole('article', { name: 'Slot 1' }));
    expect(empty.getByText('No Name')).toBeTruthy();
    expect(empty.getByText('Drop Image Here')).toBeTruthy();
    expect((empty.getByRole('button', { name: 'Clear Image' }) as HTMLButtonElement).disabled).toBe(true);

    const poster = within(await screen.findByRole('article', { name: 'poster-2.png' }));
    expect(poster.getByText('Size: 802 x 600 px')).toBeTruthy();
    expect(poster.getByRole('checkbox', { name: 'Select poster-2.png' })).toBeTruthy();
    expect(poster.getByRole('button', { name: 'Edit poster-2.png' })).toBeTruthy();
    expect(poster.getByRole('button', { name: 'Delete poster-2.png' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add slot' })).toBeTruthy();
  });

  it('shows empty panels with what to do', async () => {
    stubApi(
      editorAnswers(undefined, {
        [`GET ${IMAGES}`]: { body: { images: [] } },
        [`GET ${SLOTS}`]: { body: { imageSlots: [] } },
      }),
    );
    renderApp(PAGE_PATH);
    expect(await screen.findByText('No image slots yet')).toBeTruthy();
    expect(await screen.findByText('No images yet')).toBeTruthy();
  });

  it('hides every write control with ViewImages only', async () => {
    stubApi(editorAnswers(['ViewImages']));
    renderApp(PAGE_PATH);
    const entrance = within(await screen.findByRole('article', { name: 'Slot 0' }));
    await screen.findByRole('article', { name: 'poster-1.png' });
    for (const name of ['Upload', 'Add slot', 'Clear Image', 'Move slot 0', 'Rename slot 0', 'Delete slot 0'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Edit poster-1.png' })).toBeNull();
    expect((entrance.getByLabelText('Max Dimension') as HTMLInputElement).readOnly).toBe(true);
    // Without ViewWorlds the page does not ask for the world; the editor still works.
    expect(screen.queryByText('Hangout Lobby')).toBeNull();
  });

  it('says so without ViewImages and loads nothing', async () => {
    const fetchMock = stubApi(editorAnswers(['ViewGuild', 'ViewWorlds']));
    renderApp(PAGE_PATH);
    expect(await screen.findByText(/You need the ViewImages permission/)).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', IMAGES)).toHaveLength(0);
  });

  it("says 'Failed to load server information.' when the server's settings cannot be read", async () => {
    stubApi(editorAnswers(undefined, { [`GET ${GUILD}`]: { status: 500, body: { message: 'Boom.' } } }));
    renderApp(PAGE_PATH);
    expect(await screen.findByText('Failed to load server information.', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('says when the images or the slots cannot be loaded', async () => {
    stubApi(
      editorAnswers(undefined, {
        [`GET ${IMAGES}`]: { status: 500, body: {} },
        [`GET ${SLOTS}`]: {
          status: 403,
          body: { message: 'You need the ViewImages permission in this server.' },
        },
      }),
    );
    renderApp(PAGE_PATH);
    expect(await screen.findByText('Failed to load server images.', {}, { timeout: 4000 })).toBeTruthy();
    expect(await screen.findByText('Failed to load image slots.', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('You need the ViewImages permission in this server.')).toBeTruthy();
  });

  it('says the world was not found before asking for the e-mail', async () => {
    stubApi(withoutEmail({ [`GET ${SLOTS}`]: { status: 404, body: { message: 'World not found.' } } }));
    renderApp(PAGE_PATH);
    expect(await screen.findByRole('heading', { name: 'World not found' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Email Required' })).toBeNull();
  });

  it('says the world was not found for a world of another server', async () => {
    stubApi(
      editorAnswers(undefined, { [`GET ${SLOTS}`]: { status: 404, body: { message: 'World not found.' } } }),
    );
    renderApp(PAGE_PATH);
    expect(await screen.findByRole('heading', { name: 'World not found' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'View World Atlases' })).toBeNull();
  });

  it('goes Back to the Worlds tab', async () => {
    stubApi(editorAnswers());
    const { router } = renderApp(PAGE_PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/server-settings/${GUILD_ID}/worlds`));
  });
});
