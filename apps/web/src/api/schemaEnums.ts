import type { components } from './schema';

type Schemas = components['schemas'];

/** The schemas that are a closed set of strings (`GuildPermission`), not an open `string`. */
type EnumSchema = {
  [K in keyof Schemas]: Schemas[K] extends string ? (string extends Schemas[K] ? never : K) : never;
}[keyof Schemas];

/** The properties of a schema that are a closed set of strings (`DiscordGroupMapping.action`). */
type EnumProperty<S extends keyof Schemas> = {
  [P in keyof Schemas[S]]: NonNullable<Schemas[S][P]> extends string
    ? string extends NonNullable<Schemas[S][P]>
      ? never
      : P
    : never;
}[keyof Schemas[S]] &
  string;

function enumValues(key: string): readonly string[] {
  const values = __VRCLINK_SCHEMA_ENUMS__[key];
  // The key is type-checked against the same document, so this only fails on a stale build.
  if (!values) throw new Error(`The OpenAPI document has no enum ${key}; run npm run gen:api and rebuild.`);
  return values;
}

/** A string enum's values in the OpenAPI document's order (read at build time), e.g. every guild permission. */
export const schemaEnum = <S extends EnumSchema>(schema: S) => enumValues(schema) as readonly Schemas[S][];

/** A property's enum values in the document's order, e.g. the actions a Discord to group mapping may take. */
export const propertyEnum = <S extends keyof Schemas, P extends EnumProperty<S>>(schema: S, property: P) =>
  enumValues(`${schema}.${property}`) as readonly NonNullable<Schemas[S][P]>[];
