/** What generated/wasm/secp256k1.wasm was built from (generated/wasm/secp256k1.build.json). */
export interface Secp256k1BuildRecord {
  /** Where libsecp256k1's sources come from (the npm package and its version). */
  source: string;
  /** sha256 over every input file's path and hash, and clang's arguments. */
  inputs: string;
  files: number;
  /** clang's version line. */
  compiler: string;
  /** sha256 of the binary. */
  sha256: string;
}

export declare const LIBSECP256K1: string;
export declare const GLUE: string;
export declare const SETTINGS: Record<string, number>;
export declare function clangArguments(): string[];
export declare function buildInputs(root: string): { source: string; inputs: string; files: number };
export declare function clangVersion(): string | undefined;
export declare function buildSecp256k1Wasm(root: string): { bytes: Buffer; compiler: string };
export declare function secp256k1Wasm(root: string, options?: { rebuild?: boolean }): { bytes: Buffer; record: Secp256k1BuildRecord };
export declare function readCommitted(root: string): { bytes: Buffer; record: Secp256k1BuildRecord } | undefined;
export declare function sha256(bytes: Uint8Array): string;
