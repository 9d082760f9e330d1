/* The path map: file handle -> (parent handle, name), learnt from replies
 * that tie a name to a handle (see who_names.c), so a handle can be shown
 * as a path. Bounded (PATH_MAP_MAX records under the memory cap), least
 * recently used first out; a handle whose ancestry is not (or no longer)
 * known gets a partial path from its deepest known ancestor:
 * "<fh 3a9f0c12>/dir/file", the hash being tshark's nfs.fh.hash (CRC-32). */
#ifndef NFSSCOPE_PATH_MAP_H
#define NFSSCOPE_PATH_MAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "who_table.h"

#define PATH_MAP_MAX (1u << 20) /* handles at most */
#define PATH_NAME_KEEP 128      /* bytes of a name kept (a LOOKUP chain's components together) */
#define PATH_DEPTH_MAX 64       /* ancestors followed when a path is written */
#define PATH_STRLEN 1024        /* a written path, NUL included (longer: cut, ending in "...") */

struct path_map;

/* NULL when out of memory. max: handles at most (0: PATH_MAP_MAX). */
struct path_map *path_map_new(struct memcap *mc, uint32_t max);
void path_map_free(struct path_map *pm);
/* The node of a handle, made (unnamed) when absent; WHO_NONE when the
 * handle is empty. Touches it (most recently used). */
uint32_t path_map_node(struct path_map *pm, const uint8_t *fh, uint32_t len);
/* The node of a handle if known, else WHO_NONE (no touch). */
uint32_t path_map_find(const struct path_map *pm, const uint8_t *fh, uint32_t len);
/* The pseudo root of the NFSv4 namespace (PUTROOTFH, PUTPUBFH): "/". */
uint32_t path_map_root(struct path_map *pm);
bool path_map_live(const struct path_map *pm, uint32_t node, uint32_t gen);
uint32_t path_map_gen(const struct path_map *pm, uint32_t node);
/* The node's parent, WHO_NONE if unknown or gone. */
uint32_t path_map_parent(const struct path_map *pm, uint32_t node);
/* Name handle fh as name (one component or a/b/c) in directory dir. */
void path_map_bind(struct path_map *pm, const uint8_t *fh, uint32_t len, uint32_t dir, const uint8_t *name,
                   uint32_t nlen, bool cut);
/* Handle fh is an export's root, reached as path (MNT), or, with an empty
 * path, the namespace's root (GETFH after PUTROOTFH). */
void path_map_set_root(struct path_map *pm, const uint8_t *fh, uint32_t len, const uint8_t *path, uint32_t plen);
/* name in dir was removed / renamed to new_name in new_dir. */
void path_map_unlink(struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen);
void path_map_rename(struct path_map *pm, uint32_t dir, const uint8_t *name, uint32_t nlen, uint32_t new_dir,
                     const uint8_t *new_name, uint32_t new_len);
/* The path of a handle into buf (PATH_STRLEN is enough); false (buf "")
 * when the handle has no name nor named ancestor. */
bool path_map_path(const struct path_map *pm, const uint8_t *fh, uint32_t len, char *buf, size_t n);
/* Handles kept, and handles evicted by the bound. */
uint32_t path_map_count(const struct path_map *pm);
uint64_t path_map_evicted(const struct path_map *pm);
/* tshark's nfs.fh.hash: CRC-32 (IEEE) of the handle's bytes. */
uint32_t path_fh_hash(const uint8_t *fh, uint32_t len);

#endif
