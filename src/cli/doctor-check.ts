// Owns the shape of one `switchboard doctor` finding, shared by the doctor and its login checks.
export type Status = 'ok' | 'warn' | 'fail' | 'info';
export interface Check {
  area: string;
  status: Status;
  message: string;
  /** What to do about it (for warn and fail). */
  fix?: string;
}
