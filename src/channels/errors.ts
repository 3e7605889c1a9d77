import { isApiError, type ApiError } from '../core/errors.js';
import type { components } from '../../generated/types/channels.js';

/** The error `type` values the channels API documents (`ApplicationErrorType`). */
export type ChannelsErrorType = components['schemas']['ApplicationErrorType'];
/** The error `code` values the channels API documents (`ApplicationErrorCode`). */
export type ChannelsErrorCode = components['schemas']['ApplicationErrorCode'];

/**
 * `isApiError` narrowed to the channels service's documented types and codes:
 * a misspelt code is a compile error.
 *
 *     if (isChannelsError(e, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')) …
 */
export const isChannelsError: <T extends ChannelsErrorType, C extends ChannelsErrorCode = ChannelsErrorCode>(
  error: unknown,
  type?: T,
  code?: C,
) => error is ApiError<T, C> = isApiError;
