import { describe, expect, it } from 'vitest';
import { auditDescriptions, describeAuditEntry } from './describeAuditEntry.js';

describe('describeAuditEntry', () => {
  it('describes the actions the product records', () => {
    expect(describeAuditEntry('world.update')).toBe('Updated world settings');
    expect(describeAuditEntry('permissions.set')).toBe('Granted permissions');
    expect(describeAuditEntry('group.linked')).toBe('Linked VRChat group');
  });

  it('falls back to the action name for an unknown action', () => {
    expect(describeAuditEntry('something.new')).toBe('something.new');
    expect(describeAuditEntry('toString')).toBe('toString');
  });

  it('gives every known action a distinct sentence', () => {
    const sentences = Object.values(auditDescriptions);
    expect(new Set(sentences).size).toBe(sentences.length);
  });
});
