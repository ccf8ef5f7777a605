/// <reference types="vite/client" />

/** `METHOD /path` → operationId, read from the committed OpenAPI document at build time. */
declare const __VRCLINK_OPERATION_IDS__: Record<string, string>;

interface Window {
  /** Raises a local toast; exposed so end-to-end tests can exercise the toast area. */
  __vrclinkNotify?: typeof import('./components/toasts').notify;
}
