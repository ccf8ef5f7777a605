import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.js';

describe('foundation HTTP conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/health answers ok once the database is migrated', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown /api routes with 404 JSON', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not found/);
  });

  it('serves the OpenAPI 3.1 document with the routes in it', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/user', '/api/login']),
    );
  });

  it('serves the docs page', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('sets the XSRF-TOKEN cookie readable by scripts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toBeTruthy();
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.sameSite).toBe('Lax');
  });

  it('mints the XSRF-TOKEN cookie once: a browser that sends it back is not given a new one', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/config' });
    const minted = first.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    expect(minted).toBeTruthy();
    for (const url of ['/api/config', '/api/health', '/api/user']) {
      const again = await t.app.inject({ method: 'GET', url, cookies: { 'XSRF-TOKEN': minted! } });
      expect(again.headers['set-cookie']).toBeUndefined();
    }
  });

  it('rejects a state-changing request without the XSRF header with 403', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/callback',
      cookies: { 'XSRF-TOKEN': 'abc' },
      payload: { code: 'x', state: 'y' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Invalid or missing XSRF token.' });
  });

  it('rejects a mismatched XSRF header with 403', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/callback',
      cookies: { 'XSRF-TOKEN': 'abc' },
      headers: { 'x-xsrf-token': 'abd' },
      payload: { code: 'x', state: 'y' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers invalid input with 400 and a message', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/login/callback', payload: { code: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('code must not be empty.');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/login/callback',
      headers: { 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON.');
  });

  it('accepts JSON bodies sent with the patch-JSON content type', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/login/callback',
      headers: { 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify({ code: 'abc', state: 'nope' }),
    });
    // Parsed and validated: fails on the state check, not on the content type.
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Login failed/);
  });

  it('GET /api/user answers 401 when logged out', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });
});
