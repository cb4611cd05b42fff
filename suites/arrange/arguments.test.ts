// Schema-derived tool arguments (arrange/arguments.ts): every variant validates against its schema.
import { describe, expect, it } from 'vitest';
import { deriveArguments, validateArguments } from './arguments.ts';

const DRAFT7 = 'http://json-schema.org/draft-07/schema#';

describe('deriveArguments', () => {
  const schemas: Record<string, Record<string, unknown>> = {
    'required string + optional flag (draft-07)': {
      $schema: DRAFT7,
      type: 'object',
      properties: { topic: { type: 'string' }, ambiguous: { type: 'boolean', default: false } },
      required: ['topic'],
    },
    'enum and numbers': {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['error', 'success'] }, a: { type: 'number' }, n: { type: 'integer', minimum: 3, maximum: 9 } },
      required: ['kind', 'a', 'n'],
    },
    'formats, pattern, lengths': {
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email' },
        at: { type: 'string', format: 'date-time' },
        uri: { type: 'string', format: 'uri' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        word: { type: 'string', minLength: 2, maxLength: 4 },
      },
      required: ['mail', 'at', 'uri', 'code', 'word'],
    },
    'const, examples, arrays, nested objects': {
      type: 'object',
      properties: {
        version: { const: 2 },
        greeting: { type: 'string', examples: ['hello'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        nested: { type: 'object', properties: { x: { type: 'integer', default: 7 } }, required: ['x'] },
      },
      required: ['version', 'greeting', 'tags', 'nested'],
    },
    'no properties': { type: 'object', properties: {} },
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: every variant validates`, () => {
      const d = deriveArguments(schema);
      expect(d.problems).toEqual([]);
      expect(d.variants.length).toBeGreaterThan(0);
      for (const v of d.variants) expect(validateArguments(schema, v.arguments)).toEqual([]);
    });
  }

  it('uses const, enum, examples and defaults where the schema gives them', () => {
    const d = deriveArguments(schemas['const, examples, arrays, nested objects']!);
    expect(d.variants[0]!.arguments).toMatchObject({ version: 2, greeting: 'hello', nested: { x: 7 } });
    expect(deriveArguments(schemas['enum and numbers']!).variants[0]!.arguments).toMatchObject({ kind: 'error', n: 3 });
  });

  it('sends required properties only, then a variant per optional flag', () => {
    const d = deriveArguments(schemas['required string + optional flag (draft-07)']!);
    expect(d.variants.map((v) => Object.keys(v.arguments).sort())).toEqual([['topic'], ['ambiguous', 'topic']]);
    expect(d.variants[1]!.arguments.ambiguous).toBe(true);
    expect(d.variants[1]!.label).toBe('ambiguous: true');
  });

  it('a missing inputSchema means no arguments', () => {
    expect(deriveArguments(undefined).variants).toEqual([{ arguments: {}, label: 'required properties only' }]);
  });

  it('a schema no sample satisfies yields no arguments and says why', () => {
    const d = deriveArguments({ type: 'object', properties: { x: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['x'] });
    expect(d.variants).toEqual([]);
    expect(d.problems.join(' ')).toMatch(/\/x/);
  });

  it('validateArguments rejects what the schema forbids', () => {
    expect(validateArguments(schemas['enum and numbers'], { kind: 'other', a: 1, n: 3 })).not.toEqual([]);
    expect(validateArguments({ $schema: DRAFT7, type: 'object', required: ['m'] }, {})).not.toEqual([]);
  });
});
