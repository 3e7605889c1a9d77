/**
 * Type-level helpers that read list endpoints out of openapi-typescript's
 * `paths`, so the paginators are typed by path: a new list endpoint in a spec
 * reaches users by regenerating, with no handwritten change.
 */

/** The GET operation of path `K`. */
export type GetOperation<P, K extends keyof P> = P[K] extends { get: infer O } ? O : never;

/** The JSON body of a 200 answer. */
export type OkJson<O> = O extends { responses: { 200: { content: { 'application/json': infer D } } } } ? D : never;

export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
export type PathParamsOf<O> = O extends { parameters: { path?: infer Q } } ? Q : never;

/** Element type of the one array-valued property of a list answer (`data`, `policy_engines`, `transactions`...). */
export type ArrayItemOf<D> = {
  [K in keyof D]-?: NonNullable<D[K]> extends readonly (infer U)[] ? U : never;
}[keyof D];

/**
 * Paths whose GET takes every query parameter in `PagingKeys` and whose 200
 * answer has the property `MarkerKey` (`has_more`, `total_pages`,
 * `next_page_token`): the lists of one API's paging style. An operation with
 * no query parameters is never a list.
 */
export type ListPaths<P, PagingKeys extends string, MarkerKey extends string> = {
  [K in keyof P]: [OkJson<GetOperation<P, K>>] extends [never]
    ? never
    : [QueryOf<GetOperation<P, K>>] extends [never]
      ? never
      : MarkerKey extends keyof OkJson<GetOperation<P, K>>
        ? PagingKeys extends keyof QueryOf<GetOperation<P, K>>
          ? K
          : never
        : never;
}[keyof P];

type PathPart<O> = [PathParamsOf<O>] extends [never] ? {} : PathParamsOf<O> extends undefined ? {} : { path: PathParamsOf<O> };

/** True when the object type has no required key. */
type AllOptional<T> = {} extends T ? true : false;

type ListQuery<O, PagingKeys extends string> = Omit<QueryOf<O>, PagingKeys>;
type QueryPart<O, PagingKeys extends string> = [QueryOf<O>] extends [never]
  ? {}
  : AllOptional<ListQuery<O, PagingKeys>> extends true
    ? { query?: ListQuery<O, PagingKeys> }
    : { query: ListQuery<O, PagingKeys> };

/** The request of one list call, minus the parameters the paginator sets itself. */
export type ListParams<O, PagingKeys extends string> = PathPart<O> & QueryPart<O, PagingKeys>;

/** Options of one paginated walk: the request's params plus the walk's own settings. */
export type ListInit<O, PagingKeys extends string> = {
  params?: ListParams<O, PagingKeys>;
  /** Items per page, sent as the endpoint's page-size parameter. Default: the service's. */
  pageSize?: number;
  /** Stop after this many items. */
  maxItems?: number;
  signal?: AbortSignal;
} & (AllOptional<ListParams<O, PagingKeys>> extends true ? {} : { params: ListParams<O, PagingKeys> });

/** `[init?]` when nothing is required, `[init]` otherwise. */
export type ListInitArgs<O, PagingKeys extends string> =
  AllOptional<ListParams<O, PagingKeys>> extends true ? [init?: ListInit<O, PagingKeys>] : [init: ListInit<O, PagingKeys>];
