/* wasm_shim.c: the memory of a WebAssembly module, emulated natively (see wasm_shim.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and MAP_NORESERVE under -std=c99 (build/test_exports) */
#include "wasm_shim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { PAGE = 65536 };
#define MAX_BYTES ((size_t)64 << 20) /* -sMAXIMUM_MEMORY=64MB in the Makefile */

unsigned char *shim_heap_base;
size_t shim_grow_calls, shim_max_pages;
static size_t grown; /* bytes of the heap usable now */

/* The heap starts on a page boundary, so "memory" (0 .. heap end) is a whole number of pages. */
__attribute__((constructor)) static void shim_init(void)
{
    void *p = mmap(NULL, MAX_BYTES + PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("wasm_shim: mmap");
        abort();
    }
    shim_heap_base = (unsigned char *)(((uintptr_t)p + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    grown = 0;
}

size_t shim_memory_size(void) { return ((uintptr_t)shim_heap_base + grown) / PAGE; }

size_t shim_memory_grow(size_t pages)
{
    size_t old = shim_memory_size();
    if (pages > MAX_BYTES / PAGE || grown + pages * PAGE > MAX_BYTES) return (size_t)-1;
    if (pages && mprotect(shim_heap_base + grown, pages * PAGE, PROT_READ | PROT_WRITE) != 0) {
        perror("wasm_shim: mprotect");
        abort();
    }
    grown += pages * PAGE;
    shim_grow_calls++;
    if (shim_memory_size() > shim_max_pages) shim_max_pages = shim_memory_size();
    return old;
}
