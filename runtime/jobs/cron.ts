/** Cron expressions of recurring jobs, read by cron-parser in UTC (docs/jobs.md "Recurring jobs"). */
import { CronExpressionParser } from 'cron-parser';

/** The next tick of `expression` strictly after `after` (throws on an expression cron-parser refuses). */
export function nextTick(expression: string, after: Date): Date {
  return CronExpressionParser.parse(expression, { currentDate: after, tz: 'UTC' }).next().toDate();
}

/** Checks a cron expression; a TypeError naming the job when cron-parser refuses it. */
export function checkCron(name: string, expression: string): void {
  try {
    nextTick(expression, new Date());
  } catch (error) {
    throw new TypeError(`Tâche « ${name} » : expression cron « ${expression} » illisible (${(error as Error).message}).`, { cause: error });
  }
}
