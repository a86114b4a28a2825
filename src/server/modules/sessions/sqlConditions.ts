// Builds a WHERE clause with numbered placeholders, so optional filters never splice user input
// into SQL text.
export class SqlConditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  /** Adds a parameter and returns its placeholder ($n). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds a clause; `build` receives placeholders for `values`, in order. */
  add(build: (...placeholders: string[]) => string, ...values: unknown[]): this {
    this.clauses.push(build(...values.map((value) => this.param(value))));
    return this;
  }

  get where(): string {
    return this.clauses.length ? `where ${this.clauses.join(' and ')}` : '';
  }
}
