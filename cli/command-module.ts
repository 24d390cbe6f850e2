/** The contract between the dispatcher (`cli/main.ts`) and a command's implementing module. */
import type { Command } from 'commander';

/** What `run` receives once commander has parsed the command line. */
export interface CommandInput {
  /** Positional arguments, in the order `configure` declared them (undefined when optional and absent). */
  readonly args: readonly unknown[];
  /** Option values keyed by commander's attribute name (`--no-install` → `install`). */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * A command module is loaded with a dynamic `import()` only when its command runs, so that `fw --version`
 * and `fw help` never pay for it. Errors meant for the user are thrown as `CliError`.
 */
export interface CommandModule {
  /** Declares arguments and options on a fresh commander `Command` (help, output and exits are handled by the dispatcher). */
  readonly configure: (command: Command) => void;
  /** Runs the command and resolves to its exit code. */
  readonly run: (input: CommandInput) => Promise<number>;
}
