export { API_KEY_PREFIX } from '../../../kernel/actor.js';
/** How an API key appears as the actor of a call (and in the audit log): `apikey:<key id>`. */
export const API_KEY_ACTOR = 'apikey:';
