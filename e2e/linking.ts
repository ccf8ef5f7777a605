import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { findOnConsentPage } from './browser.js';

/** A call to the simulators' control API (`/control/...`), answering the parsed JSON body. */
export type Control = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** The simulators' control API of the e2e server; fails the test on an answer that is not a success. */
export const control: Control = async (method, path, body) => {
  const response = await fetch(`${inject('simulatorUrl')}/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
};

/** A second browser context signed in as that seeded Discord user through the simulator's consent page. */
export async function signedInContext(
  page: Page,
  baseUrl: string,
  discordId: string,
): Promise<BrowserContext> {
  const context = await page.context().browser()!.newContext({ baseURL: baseUrl });
  const other = await context.newPage();
  await other.goto('/', { waitUntil: 'networkidle' });
  await other.getByRole('link', { name: 'Login through Discord' }).click();
  await other.waitForURL(/\/oauth2\/authorize/);
  await (await findOnConsentPage(other, discordId)).check();
  await other.getByRole('button', { name: 'Authorize' }).click();
  await other.waitForURL(`${baseUrl}/profile`);
  return context;
}

export async function xsrfHeaders(context: BrowserContext): Promise<Record<string, string>> {
  const token = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  expect(token, 'XSRF-TOKEN cookie').toBeTruthy();
  return { 'X-XSRF-TOKEN': decodeURIComponent(token!) };
}

/** Links and verifies the VRChat account as the signed-in user: check → link → code in the bio → verify. */
export async function linkAndVerify(context: BrowserContext, vrcId: string, control: Control): Promise<void> {
  const request = context.request;
  const check = await request.get(`/api/users/check?vrcId=${vrcId}`);
  expect(check.status()).toBe(200);
  const { status, verificationCode } = (await check.json()) as { status: string; verificationCode: string };
  expect(status).toBe('Success');
  const headers = await xsrfHeaders(context);
  expect((await request.post(`/api/users/link?vrcId=${vrcId}`, { headers })).status()).toBe(200);
  await control('PATCH', `/vrchat/users/${vrcId}`, { bio: `Dancing! ${verificationCode}` });
  const verify = await request.post(`/api/users/verify?vrcId=${vrcId}`, { headers });
  expect(verify.status()).toBe(200);
  expect(((await verify.json()) as { status: string }).status).toBe('SuccessVerified');
}
