/* The little of <string.h> libsecp256k1 names, for a wasm32 build without a C library (see ../ecrecover.c). */
#ifndef SECP256K1_WASM_STRING_H
#define SECP256K1_WASM_STRING_H
#include <stddef.h>
void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *dest, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif
