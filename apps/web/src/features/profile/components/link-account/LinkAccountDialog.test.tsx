import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, demoConfig, renderApp, stubApi } from '../../../../testing/renderApp';
import { toastTexts } from '../../../../testing/toasts';
import { profileFixture, profilePageAnswers } from '../../testing/profileFixtures';

const neon = {
  id: 'usr_neon',
  displayName: 'NeonVR',
  profileUrl: 'https://vrchat.example/home/user/usr_neon',
  thumbnailUrl: 'https://vrchat.example/images/usr_neon.png',
};
const VERIFY_FAILED = 'Failed to verify account. Make sure you have the verification code in your bio.';

function setup(extra: Answers = {}) {
  const answers: Answers = {
    ...profilePageAnswers(profileFixture({ linkData: null })),
    'GET /api/users/search': { body: [neon] },
    'GET /api/users/check': { body: { status: 'Success', verificationCode: 'VRCL-ABCD2345' } },
    ...extra,
  };
  const fetchMock = stubApi(answers);
  renderApp('/profile');
  return { answers, fetchMock };
}

const dialog = () => within(screen.getByRole('dialog'));
const typeSearch = (value: string) =>
  fireEvent.change(dialog().getByRole('textbox', { name: /VRChat account/ }), { target: { value } });
/** Opens the dialog, searches and presses Link on the one result. */
async function searchAndPick() {
  fireEvent.click(await screen.findByRole('button', { name: 'Link Account' }));
  await screen.findByRole('dialog', { name: 'Link Account' });
  typeSearch('neon');
  await act(() => vi.advanceTimersByTimeAsync(1500));
  const result = await dialog().findByRole('listitem', { name: 'NeonVR' });
  fireEvent.click(within(result).getByRole('button', { name: 'Link' }));
}

beforeEach(() => {
  // Real time still passes (transitions, fetches); the 1.5 s debounce is skipped by advancing the clock.
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

describe('Link Account dialog', () => {
  it('searches 1.5 s after typing stops, not before', async () => {
    const { fetchMock } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Link Account' }));
    await screen.findByRole('dialog');
    typeSearch('ne');
    await act(() => vi.advanceTimersByTimeAsync(700));
    typeSearch('neon');
    // 1 s of 1.5: the clock also flows with real time, so half a second is left for a busy machine.
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(callsTo(fetchMock, 'GET', '/api/users/search')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/users/search')).toHaveLength(1));
    expect(new URL(callsTo(fetchMock, 'GET', '/api/users/search')[0].url).searchParams.get('query')).toBe(
      'neon',
    );
    expect(await dialog().findByRole('listitem', { name: 'NeonVR' })).toBeTruthy();
  });

  it('shows each result’s VRChat thumbnail (name as alt text), its initial without one, and on Confirm', async () => {
    const lookAlike = { ...neon, id: 'usr_ne0n', thumbnailUrl: null };
    setup({ 'GET /api/users/search': { body: [neon, lookAlike] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Link Account' }));
    await screen.findByRole('dialog', { name: 'Link Account' });
    typeSearch('neon');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    const [first, second] = await dialog().findAllByRole('listitem', { name: 'NeonVR' });
    expect(within(first).getByRole('img', { name: 'NeonVR' }).getAttribute('src')).toBe(neon.thumbnailUrl);
    expect(within(second).queryByRole('img')).toBeNull();
    expect(within(second).getByText('N')).toBeTruthy();
    fireEvent.click(within(first).getByRole('button', { name: 'Link' }));
    await screen.findByRole('dialog', { name: 'Confirm Link' });
    expect(dialog().getByRole('img', { name: 'NeonVR' }).getAttribute('src')).toBe(neon.thumbnailUrl);
  });

  it('goes 0 → 1 → 102 when the link is not ownership-verified, and refreshes the profile', async () => {
    const { answers, fetchMock } = setup({ 'POST /api/users/link': { body: { status: 'Success' } } });
    await searchAndPick();
    expect(await screen.findByRole('dialog', { name: 'Confirm Link' })).toBeTruthy();
    // Each step's main button takes focus: the one that moved on went with its step.
    await waitFor(() =>
      expect(document.activeElement).toBe(dialog().getByRole('button', { name: 'Confirm' })),
    );
    expect(new URL(callsTo(fetchMock, 'GET', '/api/users/check')[0].url).searchParams.get('vrcId')).toBe(
      'usr_neon',
    );
    expect(dialog().getByText('NeonVR')).toBeTruthy();
    answers['GET /api/users/profile'] = {
      body: profileFixture({
        linkData: { id: 'usr_neon', vrchatName: 'NeonVR', isVerified: false, ageVerification: 'Unverified' },
      }),
    };
    fireEvent.click(dialog().getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('dialog', { name: 'Verify Your Account' })).toBeTruthy();
    expect(toastTexts()).toContain('Account Linked');
    await waitFor(() =>
      expect(document.activeElement).toBe(dialog().getByRole('button', { name: 'Verify Account' })),
    );
    expect(dialog().getByText('VRCL-ABCD2345')).toBeTruthy();
    expect(dialog().getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(dialog().getByRole('link', { name: 'Open Profile' }).getAttribute('href')).toBe(
      `${demoConfig.vrchatWebUrl}/home/user/usr_neon`,
    );
    expect(dialog().getByRole('link', { name: 'Open Profile' }).getAttribute('target')).toBe('_blank');
    expect(callsTo(fetchMock, 'POST', '/api/users/link')).toHaveLength(1);
    expect(await screen.findByText('Ownership-Not-Verified')).toBeTruthy();
  });

  it('in 102 a failed verify says so once, inline (no toast); success goes straight to Account Ownership Verified', async () => {
    const { answers } = setup({
      'POST /api/users/link': { body: { status: 'Success' } },
      'POST /api/users/verify': { status: 400, body: { message: VERIFY_FAILED } },
    });
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Confirm' }));
    fireEvent.click(await dialog().findByRole('button', { name: 'Verify Account' }));
    const alert = await dialog().findByRole('alert');
    expect(alert.textContent).toBe(`Code not found, try again later${VERIFY_FAILED}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toastTexts()).not.toContain(VERIFY_FAILED);

    answers['POST /api/users/verify'] = { body: { status: 'SuccessVerified' } };
    fireEvent.click(dialog().getByRole('button', { name: 'Verify Account' }));
    expect(await dialog().findByRole('heading', { name: 'Account Ownership Verified' })).toBeTruthy();
    expect(dialog().queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(dialog().queryByText('Code not found, try again later')).toBeNull();
  });

  it('goes 0 → 1 → 2 when the code is already in the bio', async () => {
    setup({ 'POST /api/users/link': { body: { status: 'SuccessVerified' } } });
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Confirm' }));
    expect(await dialog().findByRole('heading', { name: 'Account Ownership Verified' })).toBeTruthy();
    expect(toastTexts()).toContain('Account Ownership Verified');
    // Focus on the success step's Close, not fallen to the page with the Confirm button that led here.
    await waitFor(() =>
      expect(document.activeElement).toBe(dialog().getAllByRole('button', { name: 'Close' }).at(-1)),
    );
    // The header's × and the footer button are both named Close; the footer one.
    fireEvent.click(dialog().getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('goes 0 → 101 on a conflict; a failed verify shows only the inline text; success goes to 2', async () => {
    const { answers, fetchMock } = setup({
      'GET /api/users/check': { body: { status: 'Conflict', verificationCode: 'VRCL-CONFLICT' } },
      'POST /api/users/verify': { status: 400, body: { message: VERIFY_FAILED } },
    });
    await searchAndPick();
    expect(await screen.findByRole('dialog', { name: 'Account Already Linked' })).toBeTruthy();
    expect(dialog().getByText(/already linked to another Discord account/)).toBeTruthy();
    expect(dialog().getByText('VRCL-CONFLICT')).toBeTruthy();
    for (const name of ['Back', 'Copy Code', 'Verify Ownership']) {
      expect(dialog().getByRole('button', { name })).toBeTruthy();
    }
    expect(dialog().getByRole('link', { name: 'Open Profile' })).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/users/link')).toHaveLength(0);

    fireEvent.click(dialog().getByRole('button', { name: 'Verify Ownership' }));
    expect(await dialog().findByText('Code not found, try again later')).toBeTruthy();
    expect(toastTexts()).not.toContain(VERIFY_FAILED);

    answers['POST /api/users/verify'] = { body: { status: 'SuccessVerified' } };
    fireEvent.click(dialog().getByRole('button', { name: 'Verify Ownership' }));
    expect(await dialog().findByRole('heading', { name: 'Account Ownership Verified' })).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/users/link')).toHaveLength(0);
  });

  it('says on Confirm that a verified link to another account would be replaced', async () => {
    setup({
      'GET /api/users/profile': {
        body: profileFixture({
          linkData: { id: 'usr_old', vrchatName: 'OldMainVR', isVerified: true, ageVerification: 'Plus18' },
        }),
      },
    });
    await searchAndPick();
    await screen.findByRole('dialog', { name: 'Confirm Link' });
    expect(dialog().getByRole('alert').textContent).toBe('This replaces your verified link to OldMainVR.');
  });

  it('gives no replacement warning without a link or for an unverified one', async () => {
    const { answers } = setup();
    await searchAndPick();
    await screen.findByRole('dialog', { name: 'Confirm Link' });
    expect(dialog().queryByText(/This replaces your verified link/)).toBeNull();

    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    answers['GET /api/users/profile'] = {
      body: profileFixture({
        linkData: {
          id: 'usr_old',
          vrchatName: 'OldMainVR',
          isVerified: false,
          ageVerification: 'Unverified',
        },
      }),
    };
    await searchAndPick();
    await screen.findByRole('dialog', { name: 'Confirm Link' });
    expect(dialog().queryByText(/This replaces your verified link/)).toBeNull();
  });

  it('sends one link request however often Confirm is clicked while it runs', async () => {
    const { fetchMock } = setup({ 'POST /api/users/link': { body: { status: 'SuccessVerified' } } });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (request: Request) => {
      if (new URL(request.url).pathname === '/api/users/link') await gate;
      return answer(request);
    });
    await searchAndPick();
    const confirm = (await dialog().findByRole('button', { name: 'Confirm' })) as HTMLButtonElement;
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await waitFor(() => expect(confirm.disabled).toBe(true));
    fireEvent.click(confirm);
    expect(callsTo(fetchMock, 'POST', '/api/users/link')).toHaveLength(1);
    release();
    expect(await dialog().findByRole('heading', { name: 'Account Ownership Verified' })).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/users/link')).toHaveLength(1);
  });

  it('copies the code to the clipboard', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    setup({ 'GET /api/users/check': { body: { status: 'Conflict', verificationCode: 'VRCL-CONFLICT' } } });
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Copy Code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('VRCL-CONFLICT'));
    await waitFor(() => expect(toastTexts()).toContain('Verification code copied.'));
  });

  it('Back returns to the search; reopening starts again at step 0 with an empty search', async () => {
    setup();
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: 'Link Account' })).toBeTruthy();
    expect(dialog().getByRole('listitem', { name: 'NeonVR' })).toBeTruthy();
    fireEvent.click(
      within(dialog().getByRole('listitem', { name: 'NeonVR' })).getByRole('button', { name: 'Link' }),
    );
    await screen.findByRole('dialog', { name: 'Confirm Link' });

    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Link Account' }));
    expect(await screen.findByRole('dialog', { name: 'Link Account' })).toBeTruthy();
    expect((dialog().getByRole('textbox', { name: /VRChat account/ }) as HTMLInputElement).value).toBe('');
    expect(dialog().queryByRole('listitem')).toBeNull();
  });

  it('says No results. when the search finds nobody', async () => {
    setup({ 'GET /api/users/search': { body: [] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Link Account' }));
    await screen.findByRole('dialog');
    typeSearch('x');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await dialog().findByText('No results.')).toBeTruthy();
  });

  it('says after 3 s of waiting on VRChat that it is slow and still trying, and stops saying it when done', async () => {
    setup({
      'POST /api/users/link': { body: { status: 'Success' } },
      'POST /api/users/verify': { body: { status: 'SuccessVerified' }, delayMs: 8000 },
    });
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Confirm' }));
    fireEvent.click(await dialog().findByRole('button', { name: 'Verify Account' }));
    // 2.5 s of 3 (the clock also flows with real time: half a second is left for a busy machine).
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(dialog().queryByText('VRChat is slow to answer; still trying…')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(dialog().getByRole('status').textContent).toBe('VRChat is slow to answer; still trying…');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await dialog().findByRole('heading', { name: 'Account Ownership Verified' })).toBeTruthy();
    expect(dialog().queryByText('VRChat is slow to answer; still trying…')).toBeNull();
  });

  it('says when to try again when VRChat is limiting requests (Retry-After)', async () => {
    setup({
      'POST /api/users/link': { body: { status: 'Success' } },
      'POST /api/users/verify': {
        status: 503,
        headers: { 'Retry-After': '7' },
        body: { message: 'VRChat is rate limiting requests. Try again in 7 seconds.' },
      },
    });
    await searchAndPick();
    fireEvent.click(await dialog().findByRole('button', { name: 'Confirm' }));
    fireEvent.click(await dialog().findByRole('button', { name: 'Verify Account' }));
    const alert = await dialog().findByRole('alert');
    expect(alert.textContent).toBe('VRChat is limiting requests. Try again in 7 seconds.');
  });
});
