import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** pg_trgm and btree_gin back the member search's infix match (created by a migration and CREATE_EXTENSIONS). */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin };
