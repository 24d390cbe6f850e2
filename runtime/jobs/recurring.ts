/**
 * Recurring jobs (docs/jobs.md "Recurring jobs"): every worker reads the cron expressions of the jobs this process
 * defines (cron-parser, in UTC) and, at each tick, tries to insert the row (job, tick) of `fw_job_ticks` and to
 * enqueue the run in the same transaction. The primary key lets one insert win over all processes and machines,
 * so each tick runs once; the others meet a duplicate and do nothing. A tick that passed while no worker ran is
 * not caught up. The payload of a run is `{ tick }`, the tick's ISO date.
 */
import type { Database } from '../db/database.js';
import { DuplicateError } from '../db/errors.js';
import { getLogger } from '../logger.js';
import { nextTick } from './cron.js';
import { describeError, jobDefinitions, type JobDefinition } from './define.js';
import { JOB_TICKS_TABLE } from './schema.js';

const log = getLogger('fw.jobs');

/** What a recurring job's handler receives. */
export interface RecurringPayload {
  /** The tick this run is for, ISO 8601 in UTC. */
  readonly tick: string;
}

/** Hours a tick row is kept (pruned by the workers). */
const TICKS_KEPT_MS = 24 * 3600 * 1000;

/**
 * Inserts the tick row and enqueues the run in one transaction; false when another process had the tick already.
 */
export async function claimTick(database: Database, definition: JobDefinition<unknown>, tick: Date): Promise<boolean> {
  // The column holds whole seconds: the tick is written as it will be read back.
  const at = new Date(Math.floor(tick.getTime() / 1000) * 1000);
  try {
    await database.transaction(async (tx) => {
      await tx.execute(`INSERT INTO ${JOB_TICKS_TABLE} (name, tick_at, created_at) VALUES (?, ?, ?)`, [definition.name, at, new Date()]);
      await definition.enqueue({ tick: at.toISOString() } satisfies RecurringPayload, { tx, runAt: at });
    });
    return true;
  } catch (error) {
    if (error instanceof DuplicateError) return false;
    throw error;
  }
}

/** The schedule of one worker: a timer to the next tick of any recurring job. */
export class RecurringScheduler {
  readonly #database: () => Database;
  #next = new Map<string, Date>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #busy: Promise<void> = Promise.resolve();
  #lastPrune = 0;

  constructor(database: () => Database) {
    this.#database = database;
  }

  start(): this {
    const now = new Date();
    for (const definition of jobDefinitions()) {
      if (definition.cron !== null) this.#next.set(definition.name, nextTick(definition.cron, now));
    }
    if (this.#next.size === 0) return this;
    this.#running = true;
    this.#arm();
    return this;
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#busy;
  }

  #arm(): void {
    if (!this.#running) return;
    const soonest = Math.min(...[...this.#next.values()].map((date) => date.getTime()));
    this.#timer = setTimeout(
      () => {
        this.#busy = this.#fire().finally(() => this.#arm());
      },
      Math.max(0, soonest - Date.now()),
    );
  }

  async #fire(): Promise<void> {
    const database = this.#database();
    for (const [name, tick] of this.#next) {
      const definition = jobDefinitions().find((candidate) => candidate.name === name);
      if (!definition?.cron) {
        this.#next.delete(name);
        continue;
      }
      let due = tick;
      while (due.getTime() <= Date.now()) {
        try {
          await claimTick(database, definition, due);
        } catch (error) {
          log.error(`Tâche récurrente « ${name} » : échéance ${due.toISOString()} non enregistrée : ${describeError(error)}`);
        }
        due = nextTick(definition.cron, due);
      }
      this.#next.set(name, due);
    }
    if (Date.now() - this.#lastPrune > 3600_000) {
      this.#lastPrune = Date.now();
      await database.execute(`DELETE FROM ${JOB_TICKS_TABLE} WHERE created_at < ?`, [new Date(Date.now() - TICKS_KEPT_MS)]).catch(() => 0);
    }
  }
}
