/**
 * JMESPath for `--filter`: `jmespath` (the original JavaScript implementation,
 * Apache-2.0, no dependencies), behind the two calls `output.ts` makes.
 *
 * Chosen again with the licence in the balance: @jmespath-community/jmespath
 * (used before) is MPL-2.0, which licence scanners flag for every SDK user,
 * and the CLI's query library is a production dependency of the package.
 * Measured here (Node 20, 2-core machine under load, 2026-11-27):
 * - size, minified + gzipped: jmespath 6.4 kB, @jmespath-community/jmespath
 *   8.9 kB, @aws-lambda-powertools/jmespath (MIT-0, one dependency) 6.8 kB;
 * - filtering 1,000 items (`data[?balance > \`500\`].{id: id, name: name}`):
 *   jmespath 453 µs, community 470 µs, powertools 816 µs;
 * - import() in a fresh process, median: jmespath 20-55 ms, community 5-12 ms,
 *   powertools 26-59 ms (CommonJS; paid once, and only when `--filter` is given).
 * jmespath keeps no compiled tree for later: `compile` checks the syntax
 * (a usage error before any request) and `search` parses again, a few µs.
 */
import jmespathModule from 'jmespath';

/** The two functions used (the package exports both; @types/jmespath declares only `search`). */
const jmespath = jmespathModule as unknown as { compile(expression: string): unknown; search(value: unknown, expression: string): unknown };

/** A checked JMESPath expression. */
export type Expression = string;

/** Checks `expression`'s syntax (throws on an error) and keeps it for `TreeInterpreter.search`. */
export function compile(expression: string): Expression {
  jmespath.compile(expression);
  return expression;
}

/** Evaluates a compiled expression against a value. */
export const TreeInterpreter = {
  search(expression: Expression, value: unknown): unknown {
    return jmespath.search(value, expression);
  },
};
