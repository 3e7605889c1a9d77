// Which scan engine the report decoder uses here. Not a public export: the
// test reaches the installed module by its file, which is the same module the
// package's entries load (same resolved file), so it answers for them.
import { useScanEngine } from './node_modules/@ourteam/service-sdk/dist/src/reports/scan.js';

/** 'wasm' when WebAssembly scans (compiled here or imported as a .wasm module), 'js' for the fallback. */
export const scanEngine = () => useScanEngine('wasm');
