// The sign-in pages are not exported here: the route table loads each one lazily from its own file.
export { type CurrentUser, currentUserKey, currentUserQuery } from './api/currentUser';
export { LoginErrorAlert } from './components/LoginErrorAlert';
export { LoginProvider } from './components/LoginProvider';
export { RequireAdmin } from './components/RequireAdmin';
export { LOGIN_REQUIRED_MESSAGE, RequireLogin } from './components/RequireLogin';
export { isAdmin, type LoginState, useLogin } from './loginContext';
export { isSafeReturnPath, loginErrorMessage, loginPath, rememberLogout } from './loginReturn';
export { useLogout } from './useLogout';
