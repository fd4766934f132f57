/**
 * One shape for a command and one registry for all of them. A feature describes each command as
 * a {@link Command} (its manifest id, what it needs closed over, its `run`) and hands it to the
 * {@link CommandRegistry} it was given; the registry registers it with VS Code and wraps every one
 * the same way: under a cancellable progress notification where the command declares one, and
 * with every failure it throws reported through {@link Failures} (said in the user's language,
 * logged with the key as `***`). A command that fails resolves to undefined.
 */
import vscode = require('vscode');
import { COMMAND_IDS, type CommandId } from '../../settings/commands';
import type { Failures } from './failures';
import { withCancellableProgress } from './progress';

/** A command that runs as it is called. */
export interface PlainCommand {
  readonly id: CommandId;
  readonly progress?: undefined;
  // The arguments are whatever VS Code, a menu, a link or a test passes: each command checks its own.
  run(this: void, ...args: any[]): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A command that runs under a notification titled `progress`, whose Cancel button aborts `signal`. */
export interface ProgressCommand {
  readonly id: CommandId;
  readonly progress: string;
  run(this: void, signal: AbortSignal, ...args: any[]): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export type Command = PlainCommand | ProgressCommand;

export class CommandRegistry {
  private readonly registered = new Set<CommandId>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly failures: Failures,
  ) {}

  /** Registers commands, each once; the registrations end with the extension. */
  register(...commands: Command[]): void {
    for (const command of commands) {
      if (this.registered.has(command.id)) throw new Error(`${command.id} is registered twice`);
      this.registered.add(command.id);
      this.context.subscriptions.push(
        vscode.commands.registerCommand(command.id, (...args) => this.run(command, args)),
      );
    }
  }

  /** The ids registered so far. */
  get ids(): readonly CommandId[] {
    return [...this.registered];
  }

  /** The manifest's commands that no feature registered (none, once every feature has started). */
  missing(): CommandId[] {
    return COMMAND_IDS.filter((id) => !this.registered.has(id));
  }

  private async run(command: Command, args: unknown[]): Promise<unknown> {
    try {
      if (command.progress === undefined) return await command.run(...args);
      const { run } = command;
      return await withCancellableProgress(command.progress, (signal) => Promise.resolve(run(signal, ...args)));
    } catch (err) {
      this.failures.report(command.id, err);
      return undefined;
    }
  }
}
