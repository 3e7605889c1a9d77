import type { Document } from 'yaml';

/** One spec bump: its name (`channels-<version>-<what>`), why it exists, and its edit of the base. */
export interface SpecBump {
  name: string;
  why: string;
  edit(doc: Document): void;
}

/** Every spec bump the gate is tested on, each one edit of the 0.8.0 base. */
export declare const SPEC_BUMPS: readonly SpecBump[];
/** The bumps whose types the user-code type test compiles against. */
export declare const TYPED_SPEC_BUMPS: readonly string[];
/** `source` with its version set, edited, under a comment. */
export declare function derivedDocument(source: string, version: string, comment: string, edit?: (doc: Document) => void): string;
/** The types users would generate from a spec file, with a header naming it. */
export declare function specBumpTypes(file: string): Promise<string>;
/** Writes the base, every bump and the types of the typed bumps and the base into `outDir`. */
export declare function writeSpecBumps(baseFile: string, outDir: string): Promise<void>;
