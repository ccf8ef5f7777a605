/** Tokens carry a prefix so a leaked one is recognisable (and so auth can tell keys from sessions). */
export const API_KEY_PREFIX = 'vrcl_';
/** How an API key appears as the actor of a call (and in the audit log): `apikey:<key id>`. */
export const API_KEY_ACTOR = 'apikey:';
