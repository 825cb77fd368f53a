// Text normalisation (word splitting, stop words, lemmas before stemming) and query analysis
// (opaque pasted data, word cap, per-word alternatives and their cache).
import { describe, expect, it } from 'vitest';
import { Vocabulary } from '../../src/search/fuzzy.js';
import { QueryAnalyzer, analyzeQuery, creditTermsOnce, queryWords } from '../../src/search/query.js';
import { splitWords, stem, terms } from '../../src/search/tokenize.js';

describe('splitWords', () => {
  it('splits identifiers on separators, camelCase, acronyms and letter/digit boundaries', () => {
    expect(splitWords('get_file-contents.v2')).toEqual(['get', 'file', 'contents', 'v', '2']);
    expect(splitWords('getHTTPResponse')).toEqual(['get', 'http', 'response']);
    expect(splitWords('ABCDef')).toEqual(['abc', 'def']);
    expect(splitWords('mp3ToWav')).toEqual(['mp', '3', 'to', 'wav']);
    expect(splitWords('a1b2')).toEqual(['a', '1', 'b', '2']);
    expect(splitWords('get-9to5mac-news')).toEqual(['get', '9', 'to', '5', 'mac', 'news']);
  });

  it('treats typographic punctuation as a separator and keeps accented letters in words', () => {
    expect(splitWords('the ‘Roman Empire’ — its fall…')).toEqual(['the', 'roman', 'empire', 'its', 'fall']);
    expect(splitWords('Café déjàVu')).toEqual(['café', 'déjà', 'vu']);
    expect(splitWords('ÜberCool')).toEqual(['über', 'cool']);
  });

  it('indexes each CJK character alone and keeps Latin words next to them whole', () => {
    expect(splitWords('根据ID获取')).toEqual(['根', '据', 'id', '获', '取']);
    expect(splitWords('从bing_search返回')).toEqual(['从', 'bing', 'search', '返', '回']);
  });

  it('handles astral characters through the slow path', () => {
    expect(splitWords('rocket 🚀 launchPad')).toEqual(['rocket', 'launch', 'pad']);
  });
});

describe('terms', () => {
  it('drops stop words and stems, mapping irregular forms to their lemma first', () => {
    expect(terms('Please find the files')).toEqual(['find', 'file']);
    expect(stem('wrote')).toBe(stem('write'));
    expect(stem('found')).toBe(stem('find'));
    expect(stem('children')).toBe(stem('child'));
    expect(stem('analysis')).toBe(stem('analyze'));
    expect(stem('indices')).toBe(stem('index'));
  });
});

describe('query analysis', () => {
  it('drops pasted base64 data but keeps paths and identifiers', () => {
    const blob = 'iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlwSFlz';
    expect(queryWords(`What does this base64 image mean? ${blob}`)).toEqual(['base', '64', 'image', 'mean']);
    const path = '/usr/local/lib/node_modules/packages/another/long/path/file.txt';
    expect(queryWords(`read ${path}`)).toContain('packages');
  });

  it('keeps each stem once and at most maxWords words', () => {
    expect(queryWords('delete deleted deleting files')).toEqual(['delete', 'files']);
    const many = Array.from({ length: 100 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
    expect(queryWords(many, 10)).toHaveLength(10);
  });

  it('expands a word to its stem, synonyms, typo corrections and completions', () => {
    const vocab = new Vocabulary();
    for (const t of ['delet', 'file', 'repositori', 'screenshot']) vocab.add(t);
    const [rm] = analyzeQuery('rm', vocab);
    expect(rm!.alternatives.get('delet')).toBe(0.5);
    const [typo] = analyzeQuery('repositries', vocab);
    expect([...typo!.alternatives.keys()]).toContain('repositori');
    const [prefix] = analyzeQuery('screensh', vocab);
    expect(prefix!.alternatives.get('screenshot')).toBe(0.5);
  });

  it('credits each index term to one query word: the one reaching it with the highest weight', () => {
    const vocab = new Vocabulary();
    for (const t of ['plot', 'chart', 'bar']) vocab.add(t);
    const words = analyzeQuery('plot bar chart', vocab);
    creditTermsOnce(words);
    const [plot, , chart] = words;
    expect(plot!.alternatives.has('chart')).toBe(false); // "chart" itself owns the term
    expect(chart!.alternatives.get('chart')).toBe(1);
    expect(chart!.alternatives.has('plot')).toBe(false);
    expect(plot!.alternatives.get('plot')).toBe(1);
    expect(plot!.alternatives.get('graph')).toBe(0.5); // first of the words reaching it equally
    expect(chart!.alternatives.has('graph')).toBe(false);
  });

  it('caches alternatives per word until the vocabulary changes', () => {
    const vocab = new Vocabulary();
    vocab.add('screenshot');
    const analyzer = new QueryAnalyzer(vocab);
    const first = analyzer.analyze('screensh')[0]!.alternatives;
    expect(analyzer.analyze('screensh')[0]!.alternatives).toBe(first);
    vocab.add('screensharing');
    const second = analyzer.analyze('screensh')[0]!.alternatives;
    expect(second).not.toBe(first);
    expect(second.has('screensharing')).toBe(true);
    vocab.delete('screensharing');
    expect(analyzer.analyze('screensh')[0]!.alternatives.has('screensharing')).toBe(false);
  });
});
