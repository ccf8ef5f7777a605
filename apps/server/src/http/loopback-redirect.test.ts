import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { loopbackRedirect } from './loopback-redirect.js';

const PUB = 'http://127.0.0.1:3000';
const page = (host: string, url = '/profile?tab=1', method = 'GET') =>
  loopbackRedirect(PUB, { method, url, host });

describe('loopbackRedirect', () => {
  it('sends localhost to the printed 127.0.0.1 address, same path', () => {
    expect(page('localhost:3000')).toBe('http://127.0.0.1:3000/profile?tab=1');
    expect(page('LOCALHOST:3000', '/')).toBe('http://127.0.0.1:3000/');
    expect(page('[::1]:3000', '/')).toBe('http://127.0.0.1:3000/');
  });

  it('leaves the right name, other hosts and ports, the API and other methods alone', () => {
    expect(page('127.0.0.1:3000')).toBeNull();
    expect(page('evil.example:3000')).toBeNull();
    expect(page('localhost:4000')).toBeNull();
    expect(page('localhost:3000', '/api/user')).toBeNull();
    expect(page('localhost:3000', '/profile', 'POST')).toBeNull();
    expect(page('')).toBeNull();
    expect(
      loopbackRedirect('https://vrclink.example', { method: 'GET', url: '/', host: 'localhost' }),
    ).toBeNull();
  });

  it('never lets the path pick another site', () => {
    expect(page('localhost:3000', '//evil.example/x')).toBe('http://127.0.0.1:3000//evil.example/x');
  });
});

describe('a page opened on localhost', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: PUB } });
  });
  afterAll(() => t?.close());

  it('is redirected to the same path on PUBLIC_URL; the API answers on either name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/profile', headers: { host: 'localhost:3000' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://127.0.0.1:3000/profile');
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { host: 'localhost:3000' },
    });
    expect(api.statusCode).toBe(200);
  });
});
