import { describe, expect, it } from 'vitest';
import { logEventTypeOf, postedActions } from '../../../kernel/log-event-types.js';
import { auditDescriptions } from '../audit-log/describeAuditEntry.js';

describe('logEventTypeOf', () => {
  it('posts links, verifications, settings and failures under their kinds', () => {
    expect(logEventTypeOf('link.created')).toBe('links');
    expect(logEventTypeOf('link.removed')).toBe('links');
    expect(logEventTypeOf('link.verified')).toBe('verifications');
    expect(logEventTypeOf('guild.auto_assign_roles')).toBe('settings');
    expect(logEventTypeOf('sync.warning')).toBe('failures');
    expect(logEventTypeOf('sync.removals_held')).toBe('groupSync');
  });

  it('tells Discord role grants from group role grants by the sync action kind', () => {
    expect(logEventTypeOf('GrantRoleTemporary', { kind: 'addDiscordRole' })).toBe('roleChanges');
    expect(logEventTypeOf('GrantRolePermanent', { kind: 'removeDiscordRole' })).toBe('roleChanges');
    expect(logEventTypeOf('GrantRoleTemporary', { kind: 'addGroupRole' })).toBe('groupSync');
    expect(logEventTypeOf('GrantRolePermanent')).toBe('groupSync');
  });

  it('never posts sign-ins, SDK tokens or sync requests', () => {
    for (const action of ['user.login', 'user.logout', 'sdk.token_issued', 'sync.requested', 'unknown.thing'])
      expect(logEventTypeOf(action)).toBeNull();
  });

  it('posts only actions the audit log describes (no typo leaves a kind silent)', () => {
    for (const action of postedActions) expect(auditDescriptions).toHaveProperty([action]);
  });
});
