/* ASan options of the fuzz targets (and of their replays in a sanitized
 * build; a user's ASAN_OPTIONS still win).
 *
 * ASan keeps each freed block out of use until 256 MB more have been freed
 * (its quarantine), so that a use after free lands on poisoned memory. An
 * input here allocates and frees about 0.3 MB (its analyzer has a memory cap
 * of a few MiB) and nothing outlives the input, so a 16 MB quarantine catches
 * the same uses after free; with the default every input ran on fresh pages,
 * and page faults took about 40% of a fuzzer's CPU time. */
#ifndef NFSSCOPE_FUZZ_ASAN_OPTIONS_H
#define NFSSCOPE_FUZZ_ASAN_OPTIONS_H

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=16"; }

#endif
