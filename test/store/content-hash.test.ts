import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, diffSummary, entryKey, StoreError } from '../../src/store/index.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('follows JSON.stringify for undefined, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, NaN, Infinity], c: new Date(0) })).toBe(
      '{"b":[null,null,null],"c":"1970-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('rejects cycles instead of overflowing the stack', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/cycle/);
  });
});

describe('contentHash', () => {
  const tool = {
    name: 'read_file',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    annotations: { readOnlyHint: true },
  };

  it('is a sha256 hex digest that ignores key order', () => {
    const reordered = {
      annotations: { readOnlyHint: true },
      inputSchema: { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' },
      description: 'Read a file',
      name: 'read_file',
    };
    expect(contentHash('tools', tool)).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash('tools', reordered)).toBe(contentHash('tools', tool));
  });

  it('covers only name, description, schemas and annotations of a tool', () => {
    const base = contentHash('tools', tool);
    expect(contentHash('tools', { ...tool, title: 'Read', _meta: { x: 1 } })).toBe(base);
    expect(contentHash('tools', { ...tool, description: 'Read a file.' })).not.toBe(base);
    expect(contentHash('tools', { ...tool, outputSchema: { type: 'object' } })).not.toBe(base);
    expect(contentHash('tools', { ...tool, annotations: { readOnlyHint: false } })).not.toBe(base);
  });

  it('covers the whole entry for prompts and resources', () => {
    const prompt = { name: 'greet', description: 'Say hi' };
    expect(contentHash('prompts', { ...prompt, title: 'Greet' })).not.toBe(contentHash('prompts', prompt));
    const resource = { uri: 'file:///a', name: 'a', mimeType: 'text/plain' };
    expect(contentHash('resources', { ...resource, mimeType: 'text/markdown' })).not.toBe(contentHash('resources', resource));
  });
});

describe('entryKey', () => {
  it('uses name, uri or uriTemplate by kind', () => {
    expect(entryKey('tools', { name: 't' }, 'x')).toBe('t');
    expect(entryKey('resources', { uri: 'file:///a', name: 'a' }, 'x')).toBe('file:///a');
    expect(entryKey('resourceTemplates', { uriTemplate: 'file:///{p}', name: 'f' }, 'x')).toBe('file:///{p}');
  });

  it('throws a StoreError naming the missing field', () => {
    expect(() => entryKey('resources', { name: 'a' }, 'saveListing("fs", "resources"): entry 2')).toThrow(StoreError);
    expect(() => entryKey('resources', { name: 'a' }, 'saveListing("fs", "resources"): entry 2')).toThrow(
      /entry 2: a resources entry needs a non-empty string "uri", got undefined/,
    );
  });
});

describe('diffSummary', () => {
  it('names changed top-level fields and descends into schemas', () => {
    const before = { name: 't', description: 'a', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };
    const after = { name: 't', description: 'b', inputSchema: { type: 'object', properties: { path: { type: 'number' } } } };
    expect(diffSummary('tools', before, after)).toEqual(['description', 'inputSchema.properties.path']);
  });

  it('reports added and removed fields, ignores unhashed ones and key order', () => {
    const before = { name: 't', title: 'T', annotations: { readOnlyHint: true }, inputSchema: { b: 1, a: 2 } };
    const after = { name: 't', title: 'U', outputSchema: { type: 'object' }, inputSchema: { a: 2, b: 1 } };
    expect(diffSummary('tools', before, after)).toEqual(['annotations', 'outputSchema']);
  });

  it('stays short', () => {
    const props = (v: string) => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${String(i).padStart(2, '0')}`, v]));
    const paths = diffSummary('tools', { name: 't', inputSchema: { properties: props('a') } }, { name: 't', inputSchema: { properties: props('b') } });
    expect(paths).toHaveLength(8);
    expect(paths[0]).toBe('inputSchema.properties.p00');
    expect(paths[7]).toBe('+13 more');
  });
});
