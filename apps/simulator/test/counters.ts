/** What `GET /control/{discord,vrchat}/counters` answers once `DELETE …/counters` has reset them: nothing counted. */
export const NOTHING_COUNTED = {
  requests: 0,
  rateLimited: 0,
  invalid: 0,
  firstAt: null,
  lastAt: null,
  byRoute: {},
};

/** VRChat's reset counters: nothing counted for any account either. */
export const NOTHING_COUNTED_VRCHAT = { ...NOTHING_COUNTED, byAccount: {} };
