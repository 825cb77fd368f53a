#!/usr/bin/env node
// @ts-check
// The two-fold protocol of `bench retrieval --tune-on` (docs/search.md) with the engine's stop-word
// list changed for the whole process. The list is English function words plus request filler
// ("please", "want", "help", "tell", ...); the filler is a small curated vocabulary, so this shows
// what the verdicts owe it: `english` indexes and searches the filler like any other word, `none`
// keeps every word. Tuning, confirmation and output are those of `--tune-on` (word lists off).
//
//   node bench/ablate-stop-words.mjs --cross <folders> --tune-on <set> [--stop-words full|english|none]
// Build first (dist/).
import { parseArgs } from 'node:util';
import { loadBench } from '../dist/search/bench.js';
import { discoverSets } from '../dist/search/cross.js';
import { STOP_WORDS } from '../dist/search/tokenize.js';
import { confirmOn, DEFAULT_TUNE_OPTIONS, formatTune, tune } from '../dist/search/tune.js';

// Words of the engine's list that a general English stop-word list (NLTK's) does not have.
const FILLER = 'please want wants wanted need needs like let lets help via using use used within without per e g eg ie etc one something anything thing things way able tell give know'.split(' ');

const { values } = parseArgs({ options: { cross: { type: 'string' }, 'tune-on': { type: 'string' }, 'stop-words': { type: 'string', default: 'english' } } });
const mode = String(values['stop-words']);
if (!values.cross || !values['tune-on'] || !['full', 'english', 'none'].includes(mode)) {
  throw new Error('usage: --cross <folders> --tune-on <set> [--stop-words full|english|none]');
}
// The list is read word by word and cached per process, so it is changed before anything is tokenized.
const stopWords = /** @type {Set<string>} */ (STOP_WORDS);
if (mode === 'english') for (const word of FILLER) stopWords.delete(word);
if (mode === 'none') stopWords.clear();
const sets = discoverSets(values.cross.split(',')).map((s) => ({ name: s.name, input: loadBench(s.tools, s.queries) }));
const tuneOn = sets.find((s) => s.name === values['tune-on']);
if (!tuneOn) throw new Error(`no set ${values['tune-on']} in ${values.cross}`);
const options = DEFAULT_TUNE_OPTIONS;
const tuned = tune(tuneOn.input, options);
const rows = await confirmOn(sets, tuneOn.name, tuned);
process.stdout.write(`stop words: ${mode} (${stopWords.size} words)\n${formatTune(tuneOn.name, options, tuned, rows).join('\n')}\n`);
