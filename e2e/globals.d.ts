interface Window {
  /** Exposed by the web app (apps/web/src/main.tsx) so tests can raise toasts. */
  __vrclinkNotify?: (toast: {
    message: string;
    type: string;
    persistent?: boolean;
    progress?: number;
  }) => string;
}
