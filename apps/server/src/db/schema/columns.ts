import { customType } from 'drizzle-orm/pg-core';

/**
 * Raw bytes (image uploads, previews, atlases, encoded world data bodies): kept in the database so every
 * process sees them. Unlike `text`, bytea holds any byte, NUL included.
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
