/**
 * Fixed layouts of the Data Streams report schemas (V2 to V13).
 *
 * A `fullReport` is the ABI encoding of the outer tuple {@link FULL_REPORT_ABI};
 * its `reportBlob` is the ABI encoding of the tuple listed here for the
 * report's schema version. Every field of every schema is a static 32-byte
 * word, so field `i` of a blob sits at byte `32 * i` of the blob.
 *
 * These tables are the single written description of the layouts: the
 * decoder's fast path reads them (its scan table, its checks) and `npm run
 * generate` writes each version's builder from them
 * (`generated/reports/builders.ts`), so a version or field edited here is
 * decoded after regenerating, with no other edit; the tests, the benchmark
 * and the example generator feed them to a generic ABI library to check the
 * decoder against.
 */

/** Schema version names, in the order of their numeric ids (`0x0002` ... `0x000d`). */
export const REPORT_VERSIONS = [
  'V2',
  'V3',
  'V4',
  'V5',
  'V6',
  'V7',
  'V8',
  'V9',
  'V10',
  'V11',
  'V12',
  'V13',
] as const;

/** A report schema version, named as in the vendor's SDKs. */
export type ReportVersion = (typeof REPORT_VERSIONS)[number];

/** The ABI types that occur in report blobs, each one a static 32-byte word. */
export type ReportFieldType = 'bytes32' | 'uint8' | 'uint32' | 'uint64' | 'uint192' | 'int192';

/**
 * One field of a report blob: its name in the decoded report, its ABI type
 * and, for the two enumerations the vendor's decoder restricts, its domain
 * (`marketStatus`: 0, 1 or 2; `ripcord`: 0 or 1).
 */
export interface ReportField {
  readonly name: string;
  readonly type: ReportFieldType;
  readonly domain?: 'marketStatus' | 'ripcord';
}

/** The six fields every schema starts with. */
export const COMMON_REPORT_FIELDS = [
  { name: 'feedId', type: 'bytes32' },
  { name: 'validFromTimestamp', type: 'uint32' },
  { name: 'observationsTimestamp', type: 'uint32' },
  { name: 'nativeFee', type: 'uint192' },
  { name: 'linkFee', type: 'uint192' },
  { name: 'expiresAt', type: 'uint32' },
] as const satisfies readonly ReportField[];

/** Complete blob layout (common fields first) of every schema version. */
export const REPORT_SCHEMAS = {
  V2: [...COMMON_REPORT_FIELDS, { name: 'price', type: 'int192' }],
  V3: [
    ...COMMON_REPORT_FIELDS,
    { name: 'price', type: 'int192' },
    { name: 'bid', type: 'int192' },
    { name: 'ask', type: 'int192' },
  ],
  V4: [
    ...COMMON_REPORT_FIELDS,
    { name: 'price', type: 'int192' },
    { name: 'marketStatus', type: 'uint8', domain: 'marketStatus' },
  ],
  V5: [
    ...COMMON_REPORT_FIELDS,
    { name: 'rate', type: 'int192' },
    { name: 'timestamp', type: 'uint32' },
    { name: 'duration', type: 'uint32' },
  ],
  V6: [
    ...COMMON_REPORT_FIELDS,
    { name: 'price', type: 'int192' },
    { name: 'price2', type: 'int192' },
    { name: 'price3', type: 'int192' },
    { name: 'price4', type: 'int192' },
    { name: 'price5', type: 'int192' },
  ],
  V7: [...COMMON_REPORT_FIELDS, { name: 'exchangeRate', type: 'int192' }],
  V8: [
    ...COMMON_REPORT_FIELDS,
    { name: 'lastUpdateTimestamp', type: 'uint64' },
    { name: 'midPrice', type: 'int192' },
    { name: 'marketStatus', type: 'uint32', domain: 'marketStatus' },
  ],
  V9: [
    ...COMMON_REPORT_FIELDS,
    { name: 'navPerShare', type: 'int192' },
    { name: 'navDate', type: 'uint64' },
    { name: 'aum', type: 'int192' },
    { name: 'ripcord', type: 'uint32', domain: 'ripcord' },
  ],
  V10: [
    ...COMMON_REPORT_FIELDS,
    { name: 'lastUpdateTimestamp', type: 'uint64' },
    { name: 'price', type: 'int192' },
    { name: 'marketStatus', type: 'uint32', domain: 'marketStatus' },
    { name: 'currentMultiplier', type: 'int192' },
    { name: 'newMultiplier', type: 'int192' },
    { name: 'activationDateTime', type: 'uint32' },
    { name: 'tokenizedPrice', type: 'int192' },
  ],
  V11: [
    ...COMMON_REPORT_FIELDS,
    { name: 'mid', type: 'int192' },
    { name: 'lastSeenTimestampNs', type: 'uint64' },
    { name: 'bid', type: 'int192' },
    { name: 'bidVolume', type: 'int192' },
    { name: 'ask', type: 'int192' },
    { name: 'askVolume', type: 'int192' },
    { name: 'lastTradedPrice', type: 'int192' },
    // Not restricted: the vendor's decoder takes any uint32 here.
    { name: 'marketStatus', type: 'uint32' },
  ],
  V12: [
    ...COMMON_REPORT_FIELDS,
    { name: 'navPerShare', type: 'int192' },
    { name: 'nextNavPerShare', type: 'int192' },
    { name: 'navDate', type: 'uint64' },
    { name: 'ripcord', type: 'uint32', domain: 'ripcord' },
  ],
  V13: [
    ...COMMON_REPORT_FIELDS,
    { name: 'bestAsk', type: 'int192' },
    { name: 'bestBid', type: 'int192' },
    { name: 'askVolume', type: 'uint64' },
    { name: 'bidVolume', type: 'uint64' },
    { name: 'lastTradedPrice', type: 'int192' },
  ],
} as const satisfies { readonly [V in ReportVersion]: readonly ReportField[] };

/** The outer tuple of a `fullReport`, as ABI parameters. */
export const FULL_REPORT_ABI = [
  { name: 'reportContext', type: 'bytes32[3]' },
  { name: 'reportBlob', type: 'bytes' },
  { name: 'rawRs', type: 'bytes32[]' },
  { name: 'rawSs', type: 'bytes32[]' },
  { name: 'rawVs', type: 'bytes32' },
] as const;

/** ABI parameters of a version's blob (the field list without `domain`), for generic ABI libraries. */
export function reportBlobAbi(version: ReportVersion): { name: string; type: ReportFieldType }[] {
  return REPORT_SCHEMAS[version].map(({ name, type }) => ({ name, type }));
}

/** The numeric schema id of a version (`'V3'` → 3), as found in the first two bytes of a feed ID. */
export function reportVersionId(version: ReportVersion): number {
  return Number(version.slice(1));
}
