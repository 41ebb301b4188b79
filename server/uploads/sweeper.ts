// Removes expired uploads on a timer, whether or not anyone asks for them.

import type { Uploads } from './uploads';

export interface SweepReport {
  expired: number;
  orphans: number;
  /** Set when the sweep failed (the store was unreachable, say); the next one tries again. */
  error?: unknown;
}

export interface Sweeper {
  /** Runs a sweep now (after the one running, if any) and resolves with what it did. */
  sweep(): Promise<SweepReport>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export interface SweeperOptions {
  intervalMs: number;
  /** Bytes without a record are removed once older than this. */
  orphanAgeMs: number;
  /** Told after every sweep (tests wait on it; the server logs removals). */
  onSweep?: (report: SweepReport) => void;
}

export function startSweeper(uploads: Uploads, options: SweeperOptions): Sweeper {
  let running: Promise<SweepReport> = Promise.resolve({ expired: 0, orphans: 0 });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const sweep = (): Promise<SweepReport> => {
    running = running.then(async () => {
      let report: SweepReport;
      try {
        report = await uploads.sweep(options.orphanAgeMs);
      } catch (error) {
        report = { expired: 0, orphans: 0, error };
      }
      options.onSweep?.(report);
      return report;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void sweep().then(schedule);
    }, options.intervalMs);
    // The listening server keeps the process alive; the sweeper alone should not.
    timer.unref();
  };
  schedule();

  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
