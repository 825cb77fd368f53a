// Owns what stops one session (or one client) from teaching the shared search index alone: a learned
// query/tool pair is applied only after `quorum` distinct teachers taught it (a teacher is the
// authenticated client, else the session), each teacher counts once per pair, a session teaches
// at most `perSession` pairs, and over-long queries are never learned. Pending votes live in memory
// (bounded) and are forgotten on restart.

const PENDING_KEPT = 10_000;

export interface LearningLimits {
  quorum: number;
  perSession: number;
  maxQueryLength: number;
}

export class LearningGuard {
  private readonly pending = new Map<string, Set<string>>();
  private readonly taught = new Map<string, number>();
  private readonly teachers = new Map<string, string>();

  constructor(private readonly limits: () => LearningLimits) {}

  /** Sessions of one authenticated client vote as that client. */
  setTeacher(session: string, teacher: string): void {
    this.teachers.set(session, teacher);
  }

  acceptsQuery(query: string): boolean {
    return query.length <= this.limits().maxQueryLength;
  }

  /** A session taught `query` for the tool `id`: the weight to apply now (0 while the pair lacks its quorum). */
  vote(session: string, id: string, query: string): number {
    const { quorum, perSession } = this.limits();
    const count = this.taught.get(session) ?? 0;
    if (count >= perSession || !this.acceptsQuery(query)) return 0;
    const key = `${id}\u0000${query.toLowerCase()}`;
    const teacher = this.teachers.get(session) ?? `session:${session}`;
    const voters = this.pending.get(key) ?? new Set<string>();
    if (voters.has(teacher)) return 0;
    voters.add(teacher);
    this.taught.set(session, count + 1);
    this.pending.delete(key); // re-inserted last: the oldest pairs make room first
    this.pending.set(key, voters);
    if (this.pending.size > PENDING_KEPT) this.pending.delete(this.pending.keys().next().value!);
    if (voters.size < quorum) return 0;
    return voters.size === quorum ? quorum : 1;
  }

  forgetSession(session: string): void {
    this.taught.delete(session);
    this.teachers.delete(session);
  }
}
