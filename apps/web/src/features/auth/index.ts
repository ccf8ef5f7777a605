export { type CurrentUser, currentUserKey, currentUserQuery } from './api/currentUser';
export { DiscordLoginPage } from './components/DiscordLoginPage';
export { LoginCallbackPage } from './components/LoginCallbackPage';
export { LoginProvider } from './components/LoginProvider';
export { LogoutPage } from './components/LogoutPage';
export { RequireAdmin } from './components/RequireAdmin';
export { LOGIN_REQUIRED_MESSAGE, RequireLogin } from './components/RequireLogin';
export { TokenLoginPage } from './components/TokenLoginPage';
export { isAdmin, type LoginState, useLogin } from './loginContext';
