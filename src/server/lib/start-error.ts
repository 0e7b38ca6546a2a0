/**
 * A reason the server cannot start that the person starting it can fix: one plain sentence saying why
 * and the command that fixes it. main.ts prints it alone (no stack trace) and exits with exitCode.
 */
export class StartError extends Error {
  constructor(
    message: string,
    readonly exitCode = 73,
  ) {
    super(message);
    this.name = "StartError";
  }
}
