/** A command's failure with the exit code it maps to; only the CLI entry turns it into an exit. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface CommandResult {
  stdout: string;
  stderr?: string;
  exitCode: number;
}
