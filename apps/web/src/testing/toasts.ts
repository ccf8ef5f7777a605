import { screen } from '@testing-library/react';

/** The texts of the toasts on screen, oldest first. */
export const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
