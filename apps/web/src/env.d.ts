/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** A server API key every call sends as `Authorization: Bearer` (a private self-hosted dashboard's build). */
  readonly VITE_API_KEY?: string;
}

/** `METHOD /path` → operationId, read from the committed OpenAPI document at build time. */
declare const __VRCLINK_OPERATION_IDS__: Record<string, string>;

/** `Schema` or `Schema.property` → its enum values, read from the committed OpenAPI document at build time. */
declare const __VRCLINK_SCHEMA_ENUMS__: Record<string, readonly string[]>;

interface Window {
  /** Raises a local toast; exposed so end-to-end tests can exercise the toast area. */
  __vrclinkNotify?: typeof import('./components/toasts').notify;
}
