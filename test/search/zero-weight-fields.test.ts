// A field of weight 0 (the tuning protocol tries them: enum values, server description, parameters)
// contributes nothing and must not disturb the scan: a tool whose query words sit only in such fields
// is listed once, and a tool's score does not change when words only such fields hold are added to the
// request (its server boost is added once). Their words still count in document frequencies (BM25F).
import { describe, expect, it } from 'vitest';
import { DEFAULT_INDEX_OPTIONS, ToolIndex, type ToolDoc } from '../../src/search/index.js';

const unitSchema = { type: 'object', properties: { unit: { type: 'string', enum: ['celsius', 'fahrenheit', 'kelvin'] } } };
const TOOLS: ToolDoc[] = [
  { key: 'units/convert', server: 'units', name: 'convert', description: 'Convert a value between scales', inputSchema: unitSchema, serverDescription: 'Temperature scales celsius fahrenheit' },
  { key: 'units/round', server: 'units', name: 'round', description: 'Round a value', serverDescription: 'Temperature scales celsius fahrenheit' },
  { key: 'weather/now', server: 'weather', name: 'now', description: 'Current weather in celsius' },
];

const zeroed = { ...DEFAULT_INDEX_OPTIONS, weights: { ...DEFAULT_INDEX_OPTIONS.weights, enums: 0, serverInfo: 0 } };
const indexOf = (docs: ToolDoc[]) => {
  const index = new ToolIndex(zeroed);
  for (const doc of docs) index.add(doc);
  return index;
};

describe('fields of weight 0', () => {
  it('list each tool once, and words found only there add nothing to its score', () => {
    const index = indexOf(TOOLS);
    const hits = index.search('convert celsius fahrenheit kelvin', { limit: 10 });
    expect(hits.map((h) => h.key)).toEqual(['units/convert', 'weather/now']);
    const convertAlone = index.search('convert', { limit: 10 });
    expect(convertAlone.map((h) => h.key)).toEqual(['units/convert']);
    expect(hits[0]!.score).toBeCloseTo(convertAlone[0]!.score, 12);
    // Only in weight-0 fields of every tool that holds it: no tool at all.
    expect(index.search('kelvin', { limit: 10 })).toEqual([]);
  });
});
