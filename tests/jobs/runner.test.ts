// The one runner's own decisions, before any byte is sent (sending needs a browser: the e2e suites).
import { describe, expect, it } from 'vitest';
import { t } from '../../lib/i18n';
import type { JobState } from '../../lib/jobs/model';
import { newProfile, sizeProblem, uploadOptions } from '../../lib/settings';
import { createRunner, type RunRequest } from '../../platform/upload/runner';

const profile = { ...newProfile('p', 'Small server'), sizeLimit: { bytes: 10, kind: 'at-most' as const } };

function request(jobId: string, source: RunRequest['source']): RunRequest {
  return { jobId, source, profile, variant: 'current', options: uploadOptions(profile.defaults) };
}

async function run(runner: ReturnType<typeof createRunner>, req: RunRequest) {
  const reports: JobState[] = [];
  const last = await runner.run(req, (s) => reports.push(s));
  return { last, reports };
}

describe('the job runner', () => {
  it('a Cancel that arrives before its job (during the hand-over) stops it as it starts', async () => {
    const runner = createRunner({ requestStreams: false, freeSpentBuffers: false });
    runner.abort('early');
    const { last, reports } = await run(
      runner,
      request('early', { kind: 'text', text: 'hi', name: 'a.txt' }),
    );
    expect(last).toMatchObject({ state: 'cancelled', error: t('uploadCancelled') });
    expect(reports.map((r) => r.state)).toEqual(['running', 'cancelled']);
    expect(runner.has('early')).toBe(false);
    // Used up: the same id runs normally next time (here: refused for its size, so nothing is sent).
    const again = await run(runner, request('early', { kind: 'text', text: 'x'.repeat(20), name: 'a.txt' }));
    expect(again.last.state).toBe('failed');
  });

  it('its own sentences are said as they are, not as "Something went wrong: …"', async () => {
    const runner = createRunner({ requestStreams: false, freeSpentBuffers: false });
    const big = await run(runner, request('big', { kind: 'text', text: 'x'.repeat(20), name: 'big.txt' }));
    expect(big.last).toMatchObject({ state: 'failed', error: sizeProblem(profile, 20), total: 20 });
    expect(big.last).not.toHaveProperty('errorDetail');
    const gone = await run(
      runner,
      request('gone', { kind: 'staged', id: crypto.randomUUID(), name: 'g', type: '', size: 1 }),
    );
    expect(gone.last).toMatchObject({ state: 'failed', error: t('stagedGone') });
  });

  it('remembers only the last few aborts of jobs it never saw', async () => {
    const runner = createRunner({ requestStreams: false, freeSpentBuffers: false });
    for (let i = 0; i < 40; i++) runner.abort(`stray-${i}`);
    const old = await run(runner, request('stray-0', { kind: 'text', text: 'x'.repeat(20), name: 'o.txt' }));
    expect(old.last.state).toBe('failed');
    const recent = await run(
      runner,
      request('stray-39', { kind: 'text', text: 'x'.repeat(20), name: 'r.txt' }),
    );
    expect(recent.last.state).toBe('cancelled');
  });
});
