// @ts-check
// Samples the resident memory of one or more process trees (a root and its descendants, summed
// VmRSS from /proc) at a fixed interval and keeps the peak. Shared pages (the node binary, libc) are
// counted once per process, as every per-process RSS figure does.
import { statusKb, treePids } from './procs.mjs';

export class RssSampler {
  /** @param {number} [intervalMs] */
  constructor(intervalMs = 100) {
    /** @type {Set<number>} */
    this.roots = new Set();
    this.peakKb = 0;
    this.peakProcesses = 0;
    /** Peak VmRSS of each root process alone (kB). */
    /** @type {Map<number, number>} */
    this.rootPeakKb = new Map();
    this.samples = 0;
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** @param {number | null | undefined} pid */
  add(pid) {
    if (typeof pid === 'number' && pid > 0) {
      this.roots.add(pid);
      this.sample();
    }
  }

  sample() {
    let totalKb = 0;
    let processes = 0;
    for (const root of this.roots) {
      for (const pid of treePids(root)) {
        const kb = statusKb(pid, 'VmRSS');
        totalKb += kb;
        processes++;
        if (pid === root) this.rootPeakKb.set(root, Math.max(this.rootPeakKb.get(root) ?? 0, kb));
      }
    }
    this.samples++;
    if (totalKb > this.peakKb) this.peakKb = totalKb;
    if (processes > this.peakProcesses) this.peakProcesses = processes;
  }

  /** Takes a last sample and stops; returns the peaks in MB. */
  stop() {
    this.sample();
    clearInterval(this.timer);
    const rootPeaks = [...this.rootPeakKb.values()];
    return {
      peak_mb: this.peakKb ? Math.round((this.peakKb / 1024) * 10) / 10 : null,
      root_peak_mb: rootPeaks.length ? Math.round((rootPeaks[0] / 1024) * 10) / 10 : null,
      processes: this.peakProcesses,
      samples: this.samples,
    };
  }
}
