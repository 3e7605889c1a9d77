/* <stdio.h> as libsecp256k1 includes it; nothing of it is used (the default callbacks are ../ecrecover.c's). */
#ifndef SECP256K1_WASM_STDIO_H
#define SECP256K1_WASM_STDIO_H
#endif
