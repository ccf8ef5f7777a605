import { createContext, useContext } from 'react';
import type { CurrentUser } from './api/currentUser';

export interface LoginState {
  isLoggedIn: boolean;
  user: Pick<CurrentUser, 'username' | 'avatar' | 'rank'> | null;
}

export const LoginContext = createContext<LoginState>({ isLoggedIn: false, user: null });

export function useLogin(): LoginState {
  return useContext(LoginContext);
}

export const isAdmin = (state: LoginState) => state.user?.rank === 'Admin';
