import { describe, expect, it } from 'vitest';
import { ApiError, responseError, thrownError } from '../api/errors';
import { failureSentence } from './failure-sentence';

const answered = (status: number, body: unknown) => responseError(new Response(null, { status }), body);

describe('failureSentence', () => {
  it("adds the server's sentence to what failed", () => {
    expect(
      failureSentence(
        'Failed to update world settings',
        answered(400, { message: 'Custom World Data is not valid JSON.' }),
      ),
    ).toBe('Failed to update world settings. Custom World Data is not valid JSON.');
    expect(
      failureSentence(
        'Failed to update guest role.',
        answered(400, { message: 'Main and guest role must differ.' }),
      ),
    ).toBe('Failed to update guest role. Main and guest role must differ.');
  });

  it('says the server could not be reached when there was no answer', () => {
    expect(failureSentence('Failed to delete API key.', thrownError(new TypeError('fetch failed')))).toBe(
      'Failed to delete API key. Network error: the server could not be reached.',
    );
  });

  it("keeps the spec's words alone when the answer carried no sentence", () => {
    expect(failureSentence('Failed to update permissions.', answered(500, 'oops'))).toBe(
      'Failed to update permissions.',
    );
    expect(failureSentence('Failed to update permissions.', new ApiError('bad-request', ' '))).toBe(
      'Failed to update permissions.',
    );
  });

  it("says what failed once when the server's sentence already begins with it", () => {
    const verifyFailed = 'Failed to verify account. Make sure you have the verification code in your bio.';
    expect(failureSentence(verifyFailed, answered(400, { message: verifyFailed }))).toBe(verifyFailed);
    expect(failureSentence('Failed to verify account.', answered(400, { message: verifyFailed }))).toBe(
      verifyFailed,
    );
  });
});
