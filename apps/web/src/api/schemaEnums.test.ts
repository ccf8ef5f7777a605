import { describe, expect, it } from 'vitest';
import { propertyEnum, schemaEnum } from './schemaEnums';

const [documentText] = Object.values(
  import.meta.glob<string>('/src/api/openapi.json', { query: '?raw', import: 'default', eager: true }),
);
const schemas = JSON.parse(documentText as string).components.schemas;

describe('enums from the OpenAPI document', () => {
  it('answers a schema enum in the order the document has it', () => {
    expect(schemaEnum('GuildPermission')).toEqual(schemas.GuildPermission.enum);
    expect(schemaEnum('GuildPermission')).toContain('Admin');
  });

  it("answers a property's enum, one per mapping direction", () => {
    expect(propertyEnum('DiscordGroupMapping', 'action')).toEqual(
      schemas.DiscordGroupMapping.properties.action.enum,
    );
    expect(propertyEnum('GroupDiscordMapping', 'action')).toEqual([
      'None',
      'GrantRolePermanent',
      'GrantRoleTemporary',
    ]);
  });

  it('says to regenerate when a build lacks an enum the types name', () => {
    expect(() => schemaEnum('NoSuchEnum' as never)).toThrow(/has no enum NoSuchEnum; run npm run gen:api/);
  });
});
