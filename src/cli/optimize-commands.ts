// Owns the `optimize` command tree's options and help; the work is in optimize-run.ts and optimize.ts (loaded on use).
import type { Command } from 'commander';

export function registerOptimize(program: Command, common: (command: Command) => Command): void {
  const optimize = program.command('optimize').description('description optimization: rewrite tool descriptions and promote only what an evaluation proves (see docs/optimization.md)');
  const gate = (c: Command) => common(c).option('--enable-optimization', 'allow optimization commands (default off; or "optimization": {"enabled": true})');
  gate(optimize.command('run', { isDefault: true }))
    .description('optimize a server\'s tools: generate candidates, lint, evaluate canonical / paraphrase control / candidates, decide by the rule')
    .argument('<server>', 'server key')
    .option('--tools <a,b>', 'only these tools (original names)')
    .option('--backend <name>', 'evaluation backend (default retrieval; others from "optimization.backends")')
    .option('--model <model>', 'model for a model backend (default: the backend\'s)')
    .option('--candidates <n>', 'candidates per tool (default 4)')
    .option('--repeats <n>', 'repeats per prompt (default 3; deterministic backends run once)')
    .option('--auto-promote', 'promote the best candidate that passes the rule')
    .option('--offline-candidates', 'candidates from the offline generator even when --backend is a model (which writes them by default)')
    .option('--json', 'print JSON')
    .action((server, opts) => import('./optimize-run.js').then((m) => m.optimizeRun(server, opts)));
  gate(optimize.command('promote'))
    .description('promote a candidate (refused with the failing condition unless its evaluation passes, or --force)')
    .argument('<server>')
    .argument('<tool>')
    .option('--candidate <id>', 'candidate id (see "optimize report")')
    .option('--description <text>', 'a text without a candidate (needs --force)')
    .option('--force', 'promote even though the rule refuses; recorded and shown as forced')
    .option('--json', 'print JSON')
    .action((server, tool, opts) => import('./optimize.js').then((m) => m.optimizePromote(server, tool, opts)));
  gate(optimize.command('revert'))
    .description('restore the canonical descriptions of a server\'s promoted tools')
    .argument('<server>')
    .option('--tools <a,b>', 'only these tools')
    .option('--json', 'print JSON')
    .action((server, opts) => import('./optimize.js').then((m) => m.optimizeRevert(server, opts)));
  gate(optimize.command('status'))
    .description('per tool: canonical or promoted (forced, stale), golden prompts and candidates')
    .option('--server <key>', 'only this server')
    .option('--json', 'print JSON')
    .action((opts) => import('./optimize.js').then((m) => m.optimizeStatus(opts)));
  gate(optimize.command('report'))
    .description('per tool: canonical vs promoted text, per-category statistics before/after with intervals and lower bounds, each prompt pass/fail')
    .option('--server <key>', 'only this server')
    .option('--format <format>', 'md (default) or json')
    .option('--out <file>', 'write to a file')
    .action((opts) => import('./optimize.js').then((m) => m.optimizeReport(opts)));
  gate(optimize.command('prompts'))
    .description('list a server\'s golden prompts, or import them (JSON array or JSONL: {tool, category, prompt, expectedBehavior?, split?})')
    .requiredOption('--server <key>', 'server key')
    .option('--tool <name>', 'only this tool')
    .option('--import <file>', 'import prompts from this file')
    .option('--json', 'print JSON')
    .action((opts) => import('./optimize.js').then((m) => m.optimizePrompts(opts)));
  optimize
    .command('retrieval-run')
    .description('the measured run of docs/optimization.md: optimize every tool of a public retrieval set offline and score held-out Recall@1/5 before and after')
    .requiredOption('--tools <file>', 'tools.jsonl')
    .requiredOption('--queries <file>', 'queries.jsonl')
    .option('--optimize-share <fraction>', 'share of queries (by id hash) used for optimizing (default 0.5)')
    .option('--json <out>', 'also write the full result as JSON')
    .action((opts) => import('./optimize.js').then((m) => m.optimizeRetrievalRun({ tools: opts.tools, queries: opts.queries, share: opts.optimizeShare, json: opts.json })));
}
