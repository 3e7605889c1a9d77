// libsecp256k1 compiled to WebAssembly for report verification
// (generated/wasm/secp256k1.wasm), from the C sources the `secp256k1` npm
// package vendors, with scripts/secp256k1-wasm/ecrecover.c on top.
//
// Compiling needs clang and wasm-ld with the wasm32 target (Debian: `apt-get
// install clang lld`), which a fresh clone does not have. So the binary is
// committed with a record of what it was built from (secp256k1.build.json: a
// hash of every input, the settings, the compiler), and `npm run generate`
// rebuilds it only when an input changed; otherwise it copies the committed
// binary. test/unit/secp256k1-wasm.test.ts checks the record against the
// inputs, and rebuilds byte for byte where clang is installed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** libsecp256k1 as the `secp256k1` npm package (a devDependency) vendors it, relative to the repository. */
export const LIBSECP256K1 = 'node_modules/secp256k1/src/secp256k1';
/** The entry point and the few C library headers it needs (the module links no C library). */
export const GLUE = 'scripts/secp256k1-wasm';

/**
 * libsecp256k1's build settings. Its multiplication tables are built in
 * memory on first use, not stored in the binary: the window sets start-up
 * time and memory only (2 × 2^(w−2) points of 64 bytes: 32 kB at 10), and
 * recovery is within a few percent of window 15's (bench/README.md,
 * "Verification weight"). The endomorphism is on (its patent has expired; it
 * is always on in later libsecp256k1 releases); 32-bit field and scalar,
 * wasm32 having no 128-bit product.
 */
export const SETTINGS = {
  ECMULT_WINDOW_SIZE: 10,
  ECMULT_GEN_PREC_BITS: 4,
  USE_ENDOMORPHISM: 1,
  USE_NUM_NONE: 1,
  USE_FIELD_10X26: 1,
  USE_SCALAR_8X32: 1,
  USE_FIELD_INV_BUILTIN: 1,
  USE_SCALAR_INV_BUILTIN: 1,
  ENABLE_MODULE_RECOVERY: 1,
  USE_EXTERNAL_DEFAULT_CALLBACKS: 1,
};

/**
 * The stack, placed first so that an overflow traps instead of overwriting
 * the tables: building the signing table takes ~220 kB of it.
 */
const STACK_BYTES = 512 * 1024;

/** clang's arguments, paths relative to the repository (the binary records none). */
export function clangArguments() {
  return [
    '--target=wasm32',
    '-O3',
    '-ffreestanding',
    '-nostdlib',
    '-isystem',
    `${GLUE}/libc`,
    '-I',
    LIBSECP256K1,
    '-I',
    `${LIBSECP256K1}/src`,
    ...Object.entries(SETTINGS).map(([name, value]) => `-D${name}=${value}`),
    '-Wl,--no-entry',
    '-Wl,--strip-all',
    '-Wl,--gc-sections',
    '-Wl,--stack-first',
    `-Wl,-z,stack-size=${STACK_BYTES}`,
    `${GLUE}/ecrecover.c`,
  ];
}

/** Every file under `dir` (relative to root), sorted. */
function filesUnder(root, dir) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1).split('\\').join('/'))
    .sort();
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * What the binary depends on: libsecp256k1's headers and sources (its
 * include/ and src/), the glue, and clang's arguments, hashed together.
 */
export function buildInputs(root) {
  const version = JSON.parse(readFileSync(join(root, 'node_modules/secp256k1/package.json'), 'utf8')).version;
  const files = [...filesUnder(root, `${LIBSECP256K1}/include`), ...filesUnder(root, `${LIBSECP256K1}/src`), ...filesUnder(root, GLUE)];
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${sha256(readFileSync(join(root, file)))}\n`);
  hash.update(clangArguments().join('\0'));
  return { source: `libsecp256k1 from the secp256k1 npm package ${version}`, inputs: hash.digest('hex'), files: files.length };
}

/** clang's version line, or undefined where clang is not installed. */
export function clangVersion() {
  try {
    return execFileSync('clang', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return undefined;
  }
}

/** Compiles the module with clang (throws, naming what to install, where clang is missing). */
export function buildSecp256k1Wasm(root) {
  const compiler = clangVersion();
  if (compiler === undefined) {
    throw new Error(
      `generate: ${LIBSECP256K1} or ${GLUE} changed since generated/wasm/secp256k1.wasm was built; rebuilding it needs clang and wasm-ld (Debian: apt-get install clang lld)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'secp256k1-wasm-'));
  try {
    const out = join(dir, 'secp256k1.wasm');
    execFileSync('clang', [...clangArguments(), '-o', out], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    return { bytes: readFileSync(out), compiler };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The module's bytes and its build record: the committed binary where its
 * record matches the inputs (and its bytes the record), else a fresh build.
 */
export function secp256k1Wasm(root, { rebuild = false } = {}) {
  const inputs = buildInputs(root);
  const committed = readCommitted(root);
  if (!rebuild && committed !== undefined && committed.record.inputs === inputs.inputs && committed.record.sha256 === sha256(committed.bytes)) {
    return committed;
  }
  const { bytes, compiler } = buildSecp256k1Wasm(root);
  return { bytes, record: { ...inputs, compiler, sha256: sha256(bytes) } };
}

/** The committed binary and its record, if both are there. */
export function readCommitted(root) {
  try {
    return {
      bytes: readFileSync(join(root, 'generated/wasm/secp256k1.wasm')),
      record: JSON.parse(readFileSync(join(root, 'generated/wasm/secp256k1.build.json'), 'utf8')),
    };
  } catch {
    return undefined;
  }
}

export { sha256 };
