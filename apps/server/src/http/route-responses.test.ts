import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/app.js';

describe('statuses every route can answer', () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: the document is read ad hoc
  let doc: any;
  let session: string;
  beforeAll(async () => {
    t = await createTestApp();
    session = (await signIn(t)).session;
    doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);

  it('answers 414 {message} to an overlong path parameter, and documents it', async () => {
    const res = await t.inject({ method: 'GET', url: `/api/users/guests/${'1'.repeat(150)}`, session });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ message: 'A value in the address is too long.' });
    expect(statuses('/api/users/guests/{guildId}', 'get')).toContain('414');
    expect(statuses('/api/user', 'get')).not.toContain('414');
  });

  it('answers 400 {message} to an address that is not valid', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/user%zz', session });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The address is not valid.' });
    expect(statuses('/api/user', 'get')).toContain('400');
  });

  it('answers 415 {message} to a body that is not JSON, and documents it where a body may come', async () => {
    for (const [method, url] of [
      ['POST', '/api/sdk-login'],
      ['DELETE', '/api/users/guests/1300000000000000000/unassign/1c2b3d4e-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await t.inject({
        method,
        url,
        session,
        payload: '<token/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(415);
      expect(res.json().message).toMatch(/\.$/);
    }
    expect(statuses('/api/sdk-login', 'post')).toContain('415');
    expect(statuses('/api/users/guests/{guildId}/unassign/{guestEntryId}', 'delete')).toContain('415');
    expect(statuses('/api/user', 'get')).not.toContain('415');
  });

  it('documents the 400 of the SDK login poll and approval, which answer it', async () => {
    for (const url of ['/api/sdk-login', '/api/oauth-approve']) {
      const res = await t.inject({ method: 'POST', url, session, payload: {} });
      expect(res.statusCode, url).toBe(400);
      expect(statuses(url, 'post'), url).toContain('400');
    }
  });

  it('documents 429 on every /api route and the XSRF 403 on state-changing ones', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const [method, op] of Object.entries(methods as Record<string, { responses: object }>)) {
        const codes = Object.keys(op.responses);
        expect(codes, `${method} ${path}`).toContain('429');
        expect(codes, `${method} ${path}`).toContain('400');
        if (method !== 'get' && path !== '/api/sdk-login')
          expect(codes, `${method} ${path}`).toContain('403');
      }
    }
    expect(statuses('/api/logout', 'get')).toContain('403');
  });
});
