// Every lint rule rejects what it should, names itself and quotes the offending text; a clean candidate passes.
import { describe, expect, it } from 'vitest';
import { copiedRun, lintCandidate, type LintContext } from '../../src/optimize/lint.js';

const catalog = [
  'Reads the complete contents of a file from the file system.',
  'Writes content to a file, creating it or overwriting an existing one.',
  'Lists the files and directories inside a given directory path.',
  'Creates a new directory, including parent directories when needed.',
  'Moves or renames a file or directory to a new location.',
  'Searches for files whose names match a pattern, recursively.',
  'Returns metadata of a file: size, creation time, permissions.',
  'Edits a text file by replacing lines, and returns a diff of the changes.',
  'Gets the directory tree as nested JSON entries.',
  'Echoes back the input message.',
];
const context: LintContext = {
  goldenPrompts: ['please show me what is inside the notes file', 'I need to see the contents of report.txt'],
  catalogDescriptions: catalog,
  otherTools: ['write_file', 'list_directory'],
};
const rules = (text: string) => lintCandidate(text, context).map((f) => f.rule);

describe('candidate lint', () => {
  it('passes a plain, purposeful description', () => {
    expect(lintCandidate('Reads a text file and returns its contents as a string.', context)).toEqual([]);
  });

  it('length: names the limit and the actual length', () => {
    const text = `Reads a file and returns its contents. ${'x'.repeat(256)}`;
    const finding = lintCandidate(text, context).find((f) => f.rule === 'length')!;
    expect(text.length).toBe(295);
    expect(finding.message).toBe('exceeds 280 characters (got 295)');
    expect(finding.text).toBe(text.slice(280));
  });

  it('assertive: absolute, promotional and other-tool claims are quoted', () => {
    for (const [text, quote] of [
      ['Always use this tool to read files and return contents.', 'Always'],
      ['Reads files. You must use this for any file access.', 'must use'],
      ['The best way to read and return a file.', 'The best'],
      ['Reads files; the most reliable reader available.', 'most reliable'],
      ['Reads files faster than any other tool does.', 'faster than'],
      ['Reads files; use it instead of write_file for reading.', 'write_file'],
    ]) {
      const finding = lintCandidate(text, context).find((f) => f.rule === 'assertive');
      expect(finding, text).toBeDefined();
      expect(finding!.text.toLowerCase()).toContain(quote.toLowerCase());
    }
  });

  it('leakage: a run of 4+ words copied from a golden prompt, quoted in full', () => {
    const findings = lintCandidate('Use it to see the contents of report files and return them.', context);
    const leak = findings.find((f) => f.rule === 'leakage')!;
    expect(leak.text).toBe('to see the contents of report');
    expect(leak.message).toContain('copies 6 words');
    expect(rules('Reads the contents of a file.')).not.toContain('leakage'); // three shared words are fine
    expect(copiedRun('a b c', ['a b c d'], 4)).toBeUndefined();
  });

  it('no purpose: too short or without any action', () => {
    expect(rules('File thing.')).toContain('no-purpose');
    expect(rules('A very handy utility for your convenience and happiness.')).toContain('no-purpose');
    expect(rules('Returns the weather for a city.')).not.toContain('no-purpose');
  });

  it('outlier: text unlike the catalog by its character trigrams, with the most unusual part quoted', () => {
    const finding = lintCandidate('Reads zzqx vvkj qqpw xxzj kkqv jjxz wwqk zzvx qxzj.', context).find((f) => f.rule === 'outlier');
    expect(finding).toBeDefined();
    expect(finding!.message).toMatch(/cross-entropy [\d.]+ bits\/char/);
    expect(finding!.text).toMatch(/[qxzjvkw]{4}/);
    expect(rules('Reads a file from the file system and returns its contents.')).not.toContain('outlier');
    // Too small a catalog: the model is not trusted, nothing is flagged.
    expect(lintCandidate('Reads zzqx vvkj qqpw xxzj.', { ...context, catalogDescriptions: catalog.slice(0, 3) }).map((f) => f.rule)).not.toContain('outlier');
  });
});
