/**
 * The sandbox's clock. Sandbox time runs with real time at a configurable
 * pace, and a test can move it on by hand. Nothing uses a real timer: work
 * scheduled for a sandbox time runs, in time order, the next time anyone
 * looks at the clock at or after that time (every request does). So a frozen
 * clock (`pace: 0`) plus `advance()` is fully deterministic, and closing the
 * sandbox leaves no timer behind.
 */
export interface SandboxClock {
  /** Sandbox time, in Unix milliseconds. Inside a scheduled task: that task's due time. */
  now(): number;
  /** Moves sandbox time on by `ms` and runs what became due. */
  advance(ms: number): void;
  /** Runs `task` once sandbox time reaches `time` (Unix ms); at once, on the next look, if it has. */
  at(time: number, task: () => void): void;
  /** Runs every task that is due, oldest first (tasks may schedule more). */
  runDue(): void;
  /** Forgets every scheduled task. */
  clear(): void;
}

export interface ClockOptions {
  /** Sandbox milliseconds per real millisecond. Default 1; 0 freezes time (move it with `advance`). */
  pace?: number;
  /** Sandbox time at creation, Unix ms. Default: the real time. */
  start?: number;
  /** The real clock (tests). */
  realNow?: () => number;
}

interface Task {
  time: number;
  run: () => void;
}

export function createClock(options: ClockOptions = {}): SandboxClock {
  const pace = options.pace ?? 1;
  if (!Number.isFinite(pace) || pace < 0) throw new RangeError(`pace must be a finite number >= 0, got ${String(pace)}`);
  const realNow = options.realNow ?? Date.now;
  const realStart = realNow();
  const start = options.start ?? realStart;
  let advanced = 0;
  let tasks: Task[] = [];
  let running = false;
  /** The due time of the task being run: what it sees as now, so the changes it makes and schedules date from when they were due, not from when someone next looked. */
  let taskTime: number | undefined;

  const currentTime = () => Math.floor(start + (realNow() - realStart) * pace + advanced);
  const now = () => taskTime ?? currentTime();

  function runDue(): void {
    // A task that looks at the clock must not re-enter the loop.
    if (running) return;
    running = true;
    try {
      const until = currentTime();
      while (tasks.length > 0 && tasks[0]!.time <= until) {
        const task = tasks.shift()!;
        taskTime = task.time;
        task.run();
      }
    } finally {
      taskTime = undefined;
      running = false;
    }
  }

  /** Keeps `tasks` sorted by time, then by scheduling order (binary search for the slot). */
  function insert(task: Task): void {
    let low = 0;
    let high = tasks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (tasks[middle]!.time <= task.time) low = middle + 1;
      else high = middle;
    }
    tasks.splice(low, 0, task);
  }

  return {
    now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance() takes a finite number of ms >= 0, got ${String(ms)}`);
      advanced += ms;
      runDue();
    },
    at(time, run) {
      insert({ time, run });
    },
    runDue,
    clear() {
      tasks = [];
    },
  };
}
