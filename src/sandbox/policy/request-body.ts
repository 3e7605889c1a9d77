/**
 * A request body as the operation's spec types it. The request check
 * generated from the spec (`request-check.ts`) runs before any handler and
 * refuses every body that does not fit, so a handler only reads it.
 */
import type { components as CoordinatorComponents, operations as CoordinatorOperations } from '../../../generated/types/policy-coordinator.js';
import type { operations as EvaluationOperations } from '../../../generated/types/policy-evaluation.js';

type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type CoordinatorBody<Op extends keyof CoordinatorOperations> = JsonBody<CoordinatorOperations[Op]>;

/** The checked body of a coordinator operation. */
export function bodyOf<Op extends keyof CoordinatorOperations>(_operationId: Op, body: unknown): CoordinatorBody<Op> {
  return body as CoordinatorBody<Op>;
}

/** The checked body of an evaluation operation. */
export function evaluationBodyOf<Op extends keyof EvaluationOperations>(_operationId: Op, body: unknown): JsonBody<EvaluationOperations[Op]> {
  return body as JsonBody<EvaluationOperations[Op]>;
}

/** A request schema of the coordinator, for a body one operation takes in several shapes (`oneOf`). */
export type CoordinatorSchema<Name extends keyof CoordinatorComponents['schemas']> = CoordinatorComponents['schemas'][Name];
