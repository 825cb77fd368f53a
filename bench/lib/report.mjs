// @ts-check
// The machine description and the markdown table the harness prints.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ROOT_DIR } from './root-modules.mjs';

export function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1].trim();
  } catch {
    // keep os.cpus()
  }
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memory_gb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export function gitRevision() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changes = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((line) => line.trim());
    return { commit, src_dirty: changes.length > 0, src_changes: changes.slice(0, 50) };
  } catch {
    return { commit: null, src_dirty: null, src_changes: [] };
  }
}

export function loadAverage() {
  return os.loadavg().map((v) => Math.round(v * 100) / 100);
}

/** @param {number | null | undefined} v */
export function ms(v) {
  if (typeof v !== 'number') return '–';
  if (v < 10) return v.toFixed(2);
  if (v < 100) return v.toFixed(1);
  return String(Math.round(v));
}

/** @param {number | null | undefined} v */
function ratio(v) {
  return typeof v === 'number' ? `${v.toFixed(2)}×` : '–';
}

/** @param {any} record @param {number} clients */
function level(record, clients) {
  const row = (record.throughput ?? []).find((/** @type {any} */ t) => t.clients === clients);
  if (!row || typeof row.calls_per_s !== 'number') return '–';
  return `${row.calls_per_s} (${ms(row.p99_ms)})`;
}

/**
 * The results table in markdown.
 * @param {any[]} records aggregated records
 * @param {number[]} levels
 */
export function markdownTable(records, levels) {
  const head = [
    'target',
    'face',
    'downstream',
    'connect ms',
    'tools/list ms',
    'seq p50 / p90 / p99 ms',
    'p50 × direct (paired)',
    'CPU µs/call',
    ...levels.map((l) => `${l} session${l === 1 ? '' : 's'}: calls/s (p99 ms)`),
    '64 KB ms',
    'RSS MB',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((h, i) => (i < 3 ? '---' : '---:')).join('|')}|`];
  for (const r of records) {
    if (r.skipped) {
      lines.push(`| ${r.label} | ${r.face} | ${r.downstream} | skipped: ${r.skipped.replace(/\|/g, '/')} |${' |'.repeat(head.length - 4)}`);
      continue;
    }
    const seq = r.seq ?? {};
    lines.push(
      `| ${[
        r.label,
        r.face,
        r.downstream,
        ms(r.connect_ms),
        ms(r.list_ms),
        `${ms(seq.p50_ms)} / ${ms(seq.p90_ms)} / ${ms(seq.p99_ms)}`,
        typeof r.ratio_p50_paired === 'number' ? `${ratio(r.ratio_p50_vs_direct)} (${ratio(r.ratio_p50_paired)})` : ratio(r.ratio_p50_vs_direct),
        typeof r.seq_cpu_us_per_call === 'number' ? String(r.seq_cpu_us_per_call) : '–',
        ...levels.map((l) => level(r, l)),
        ms(r.payload64k_ms),
        typeof r.rss_mb === 'number' ? r.rss_mb.toFixed(0) : '–',
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}
