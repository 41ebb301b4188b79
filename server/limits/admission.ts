// What a limit answers: go on, or a refusal with its sentence and when to try again. A leaf of its own, so
// the accounts (which the settings' schema reads) can name it without importing the limits themselves.

export type Admission = { ok: true } | { ok: false; message: string; retryAfterMs: number };
