import type { ConsoleOperation } from './console-data.mjs';
/** A field's text as the SDK call takes it. */
export declare function typedValue(parameter: ConsoleOperation['parameters'][number], text: string): unknown;
/** A spec value as a field shows it. */
export declare function fieldText(value: unknown): string;
/** A URL the sandbox can take: the samples' `<org>` placeholder made a host name. */
export declare function sendable(url: string): string;
/** The request of one console operation, from its fields' texts. */
export declare function requestFor(
  operation: ConsoleOperation,
  texts: Record<string, string>,
  bodyText: string | undefined,
): { method: string; url: string; headers: [string, string][]; body: string | undefined; values: { parameter: ConsoleOperation['parameters'][number]; text: string }[] };
/** The fields' texts as the console first shows them. */
export declare function prefilled(operation: ConsoleOperation): { texts: Record<string, string>; bodyText: string | undefined };
