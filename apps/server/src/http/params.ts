import { z } from 'zod';

/** A Discord id in a path or body. */
export const snowflake = z.string().regex(/^\d{1,20}$/, 'must be a Discord id');
