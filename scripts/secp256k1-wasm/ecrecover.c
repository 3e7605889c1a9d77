/*
 * libsecp256k1 for the SDK's report verification, compiled to wasm32 by
 * scripts/lib/secp256k1-wasm.mjs (clang, no C library). The module imports
 * nothing and exports its memory and the functions below; the caller writes
 * the inputs into the buffers whose addresses the *_buffer functions give.
 *
 * Its size is what the tables leave out: this libsecp256k1 builds its
 * multiplication tables in memory when a context is created (on the first
 * call that needs it) instead of carrying them precomputed in the binary, so
 * the window size (ECMULT_WINDOW_SIZE, set by the build script) costs
 * start-up time and memory, not bytes shipped.
 */
#include "src/secp256k1.c"
#include "src/modules/recovery/main_impl.h"

/*
 * Two contexts, each built on first use in memory the module reserves (no allocator): one
 * to verify, whose two tables hold 2^(ECMULT_WINDOW_SIZE - 2) points each, and one to sign
 * (the sandbox's made-up keys, tests), whose table holds (256 / ECMULT_GEN_PREC_BITS) *
 * 2^ECMULT_GEN_PREC_BITS points; 64 bytes a point, plus the context itself. A verifier
 * never builds the signing table. context() checks each bound against libsecp256k1's count.
 */
#define POINT_BYTES 64
#define CONTEXT_BYTES 1024
static unsigned char verify_memory[POINT_BYTES * 2 * (1 << (ECMULT_WINDOW_SIZE - 2)) + CONTEXT_BYTES] __attribute__((aligned(16)));
static unsigned char sign_memory[POINT_BYTES * (256 / ECMULT_GEN_PREC_BITS) * (1 << ECMULT_GEN_PREC_BITS) + CONTEXT_BYTES] __attribute__((aligned(16)));
static secp256k1_context *verify_context;
static secp256k1_context *sign_context;

static const secp256k1_context *context(secp256k1_context **built, unsigned char *memory, size_t size, unsigned int flags) {
    if (*built != NULL) return *built;
    if (secp256k1_context_preallocated_size(flags) > size) __builtin_trap();
    *built = secp256k1_context_preallocated_create(memory, flags);
    return *built;
}
#define VERIFY_CONTEXT context(&verify_context, verify_memory, sizeof verify_memory, SECP256K1_CONTEXT_VERIFY)
#define SIGN_CONTEXT context(&sign_context, sign_memory, sizeof sign_memory, SECP256K1_CONTEXT_SIGN)

static unsigned char hash_input[32];
static unsigned char signature_io[64];
static unsigned char private_input[32];
static unsigned char public_key_output[65];

#define EXPORT(name) __attribute__((export_name(#name)))

EXPORT(hash_buffer) unsigned char *hash_buffer(void) { return hash_input; }
EXPORT(signature_buffer) unsigned char *signature_buffer(void) { return signature_io; }
EXPORT(private_key_buffer) unsigned char *private_key_buffer(void) { return private_input; }
EXPORT(public_key_buffer) unsigned char *public_key_buffer(void) { return public_key_output; }

/* Writes the uncompressed key (65 bytes) to the public-key buffer. */
static void write_public_key(const secp256k1_context *ctx, const secp256k1_pubkey *key) {
    size_t length = sizeof public_key_output;
    secp256k1_ec_pubkey_serialize(ctx, public_key_output, &length, key, SECP256K1_EC_UNCOMPRESSED);
}

/*
 * ecrecover: the key that signed the hash buffer with the signature buffer (r ‖ s) and
 * the recovery id (0 or 1). 1 and the key in the public-key buffer, or 0 when none recovers.
 */
EXPORT(recover) int recover(int recovery_id) {
    secp256k1_ecdsa_recoverable_signature signature;
    secp256k1_pubkey key;
    if (recovery_id < 0 || recovery_id > 3) return 0;
    if (!secp256k1_ecdsa_recoverable_signature_parse_compact(VERIFY_CONTEXT, &signature, signature_io, recovery_id)) return 0;
    if (!secp256k1_ecdsa_recover(VERIFY_CONTEXT, &key, &signature, hash_input)) return 0;
    write_public_key(VERIFY_CONTEXT, &key);
    return 1;
}

/* The public key of the private-key buffer into the public-key buffer: 1, or 0 for an invalid key. */
EXPORT(public_key_of) int public_key_of(void) {
    secp256k1_pubkey key;
    if (!secp256k1_ec_pubkey_create(SIGN_CONTEXT, &key, private_input)) return 0;
    write_public_key(SIGN_CONTEXT, &key);
    return 1;
}

/* Signs the hash buffer with the private-key buffer (RFC 6979, low s): r ‖ s into the signature buffer; the recovery id, or -1. */
EXPORT(sign) int sign(void) {
    secp256k1_ecdsa_recoverable_signature signature;
    int recovery_id;
    if (!secp256k1_ecdsa_sign_recoverable(SIGN_CONTEXT, &signature, hash_input, private_input, NULL, NULL)) return -1;
    secp256k1_ecdsa_recoverable_signature_serialize_compact(SIGN_CONTEXT, signature_io, &recovery_id, &signature);
    return recovery_id;
}

/* libsecp256k1 calls these only on a caller's mistake (a null argument) or a broken invariant: never for any input bytes. */
void secp256k1_default_illegal_callback_fn(const char *message, void *data) {
    (void)message;
    (void)data;
    __builtin_trap();
}
void secp256k1_default_error_callback_fn(const char *message, void *data) {
    (void)message;
    (void)data;
    __builtin_trap();
}

/* The C library the sources name. The preallocated context needs no allocator: these never run. */
void *malloc(size_t size) { (void)size; __builtin_trap(); }
void *realloc(void *ptr, size_t size) { (void)ptr; (void)size; __builtin_trap(); }
void free(void *ptr) { (void)ptr; }
_Noreturn void abort(void) { __builtin_trap(); }

void *memset(void *dest, int c, size_t n) {
    unsigned char *d = dest;
    while (n--) *d++ = (unsigned char)c;
    return dest;
}
void *memcpy(void *dest, const void *src, size_t n) {
    unsigned char *d = dest;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dest;
}
void *memmove(void *dest, const void *src, size_t n) {
    unsigned char *d = dest;
    const unsigned char *s = src;
    if (d < s) while (n--) *d++ = *s++;
    else while (n--) d[n] = s[n];
    return dest;
}
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) if (*x != *y) return *x - *y;
    return 0;
}
