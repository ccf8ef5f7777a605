// The VRChat Creator Companion's repository listing format (VPM), as a JSON Schema for tests: a listing
// { name, id, url, author, packages: { <id>: { versions: { <semver>: manifest } } } } where each manifest is the
// package's package.json plus the zip's url and zipSHA256 (shared/compat/world-sdk.md, "Package listing").

const semver = '^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$';
/** A version range as VPM writes them: ">=3.5.0", "^1.2.0", "3.7.x", "1.0.0 - 2.0.0", ">=1.0.0 <2.0.0"… */
const range =
  '^(?:[<>=^~]*\\s*\\d+(?:\\.(?:\\d+|x|\\*)){0,2}(?:-[0-9A-Za-z.-]+)?\\s*)+(?:\\s*(?:\\|\\||-)\\s*[<>=^~]*\\s*\\d+(?:\\.(?:\\d+|x|\\*)){0,2}\\s*)*$';
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };

export const vpmManifestSchema = {
  type: 'object',
  required: ['name', 'version', 'displayName', 'description', 'unity', 'url', 'zipSHA256', 'author'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9_-]+(?:\\.[a-z0-9_-]+)+$' },
    version: { type: 'string', pattern: semver },
    displayName: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    // Unity's major.minor (e.g. 2022.3); unityRelease may name the patch.
    unity: { type: 'string', pattern: '^\\d{4}\\.\\d+$' },
    unityRelease: { type: 'string' },
    vrchatVersion: { type: 'string', pattern: '^\\d{4}\\.\\d+(?:\\.\\d+)?$' },
    url: { type: 'string', format: 'uri', pattern: '^https?://' },
    zipSHA256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    author: {
      oneOf: [
        { type: 'string' },
        {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, email: { type: 'string' }, url: { type: 'string' } },
        },
      ],
    },
    license: { type: 'string' },
    keywords: { type: 'array', items: { type: 'string' } },
    dependencies: { type: 'object', additionalProperties: { type: 'string', pattern: range } },
    vpmDependencies: { type: 'object', additionalProperties: { type: 'string', pattern: range } },
    legacyFolders: stringMap,
    legacyFiles: stringMap,
    legacyPackages: { type: 'array', items: { type: 'string' } },
    samples: { type: 'array' },
    changelogUrl: { type: 'string' },
    documentationUrl: { type: 'string' },
  },
} as const;

export const vpmListingSchema = {
  type: 'object',
  required: ['name', 'id', 'url', 'author', 'packages'],
  properties: {
    name: { type: 'string', minLength: 1 },
    id: { type: 'string', pattern: '^[a-z0-9_-]+(?:\\.[a-z0-9_-]+)+$' },
    url: { type: 'string', format: 'uri', pattern: '^https?://' },
    author: { oneOf: [{ type: 'string' }, { type: 'object', required: ['name'] }] },
    packages: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['versions'],
        properties: {
          versions: { type: 'object', minProperties: 1, additionalProperties: vpmManifestSchema },
        },
      },
    },
  },
} as const;
