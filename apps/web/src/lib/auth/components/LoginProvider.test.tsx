import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/queryClient';
import { loggedInAs, loggedOut, stubApi } from '../../../testing/renderApp';
import { useLogin } from '../loginContext';
import { LoginProvider } from './LoginProvider';

function Probe() {
  const { isLoggedIn, user } = useLogin();
  return <p>{isLoggedIn ? `in as ${user?.username} (${user?.rank})` : `out, user ${String(user)}`}</p>;
}

function renderProvider() {
  return render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <LoginProvider>
          <Probe />
        </LoginProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('LoginProvider', () => {
  it('renders nothing until the current user has loaded', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const { container } = renderProvider();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.querySelector(':not(style)')).toBeNull();
    answer(Response.json({ id: '1', username: 'neon', avatar: null, rank: 'User' }));
    expect(await screen.findByText('in as neon (User)')).toBeTruthy();
  });

  it('treats a 401 as logged out with a null user, and logs it', async () => {
    stubApi(loggedOut);
    renderProvider();
    expect(await screen.findByText('out, user null')).toBeTruthy();
    expect(console.debug).toHaveBeenCalled();
  });

  it('treats a network failure as logged out', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    renderProvider();
    expect(await screen.findByText('out, user null')).toBeTruthy();
  });

  it('exposes the rank of a logged-in admin', async () => {
    stubApi(loggedInAs('Admin'));
    renderProvider();
    await waitFor(() => expect(screen.getByText('in as neon (Admin)')).toBeTruthy());
  });
});
