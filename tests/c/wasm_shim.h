/*
 * wasm_shim.h: test-only, force-included (clang -include) when c/wasm_exports.c is built
 * natively for the fuzzer and for coverage. The product code is not changed: this gives it
 * the three things only a WebAssembly module has.
 *   __heap_base                    the first free byte after static data (from the linker)
 *   __builtin_wasm_memory_size(0)  the memory's size in 64 KiB pages
 *   __builtin_wasm_memory_grow(0, k)  grows it by k pages; the old size, or -1 when it cannot
 * wasm_shim.c emulates a module's memory: addresses 0 .. pages·64 KiB, of which the heap is
 * the top part, starting 64 KiB-aligned at shim_heap_base. Pages past the grown size are
 * mapped PROT_NONE, so a read or write past the memory traps as it would in WebAssembly.
 */
#ifndef TESTS_C_WASM_SHIM_H
#define TESTS_C_WASM_SHIM_H

#include <stddef.h>

extern unsigned char *shim_heap_base;
size_t shim_memory_size(void);
size_t shim_memory_grow(size_t pages);
/* how many times the memory grew, and its largest size (for the fuzzer's checks) */
extern size_t shim_grow_calls, shim_max_pages;

/* `extern unsigned char __heap_base;` becomes `extern unsigned char (*shim_heap_base);`, and
 * `&__heap_base` is shim_heap_base. */
#define __heap_base (*shim_heap_base)
#define __builtin_wasm_memory_size(index) shim_memory_size()
#define __builtin_wasm_memory_grow(index, pages) shim_memory_grow(pages)

#endif
