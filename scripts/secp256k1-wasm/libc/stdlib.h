/* The little of <stdlib.h> libsecp256k1 names, for a wasm32 build without a C library (see ../ecrecover.c). */
#ifndef SECP256K1_WASM_STDLIB_H
#define SECP256K1_WASM_STDLIB_H
#include <stddef.h>
void *malloc(size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
_Noreturn void abort(void);
#endif
