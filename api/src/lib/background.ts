/**
 * Work that runs after the answer has been sent (e.g. a reset e-mail, so the response time does
 * not tell whether the account exists). Errors are reported, never thrown at the client; idle()
 * lets shutdown (and tests) wait for what is still running.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown, label: string) => void) {}

  run(label: string, task: () => Promise<unknown>): void {
    // setImmediate: the task starts only after the current handler has returned its answer.
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (err) => this.onError(err, label),
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
