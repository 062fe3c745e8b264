/*
 * wasm_exports.h: the WebAssembly module's exports and ids, as C declarations, all read from the
 * one table c/wasm_exports.def. c/wasm_exports.c defines the functions; web/core/attention.js is
 * their one caller in the product, and the native tests (tests/c/test_exports.c, fuzz_exports.c)
 * call them too. Nothing here is written twice: a row of the table is the whole declaration.
 */
#ifndef WASM_EXPORTS_H
#define WASM_EXPORTS_H

/* In a Wasm build each declaration carries export_name, so the definition in c/wasm_exports.c is
 * exported under its own name with no marker of its own; a native build declares plain functions. */
#ifdef __wasm__
#define AE_EXPORT_AS(name) __attribute__((export_name(#name)))
#else
#define AE_EXPORT_AS(name)
#endif

/* The functions. A build without a part (-DAE_FORWARD_ONLY: no training or induction;
 * -DAE_NO_INDUCTION: no induction) declares none of that part's exports, so none is exported. */
#define AE_DECLARE(type, name, params) AE_EXPORT_AS(name) type name params;
#define AE_FORWARD AE_DECLARE
#ifndef AE_FORWARD_ONLY
#define AE_TRAIN AE_DECLARE
#ifndef AE_NO_INDUCTION
#define AE_INDUCTION AE_DECLARE
#endif
#endif
#include "wasm_exports.def"
#undef AE_DECLARE

/* Each id list is an enum that counts itself: B_X = 0, ..., B_COUNT the number of buffers. */
#define AE_ID(id, js_name) id,
enum {
#define AE_BUFFER AE_ID
#include "wasm_exports.def"
    B_COUNT
};
enum {
#define AE_LAB_BUFFER AE_ID
#include "wasm_exports.def"
    LAB_COUNT
};
enum {
#define AE_TILE_BUFFER AE_ID
#include "wasm_exports.def"
    TILE_COUNT
};
enum {
#define AE_TRAIN_BUFFER AE_ID
#include "wasm_exports.def"
    T_COUNT
};
enum {
#define AE_TRAIN_INFO AE_ID
#include "wasm_exports.def"
    I_COUNT
};
enum {
#define AE_IND_BUFFER AE_ID
#include "wasm_exports.def"
    IND_B_COUNT
};
enum {
#define AE_IND_INFO AE_ID
#include "wasm_exports.def"
    IND_I_COUNT
};
#undef AE_ID

#define AE_NUMBER(name, value) name = value,
enum {
#define AE_CONSTANT AE_NUMBER
#include "wasm_exports.def"
};
#undef AE_NUMBER

#endif
