/* Shared between the plugin's files: the open capture's state. */
#ifndef NFSSCOPE_PLUGIN_H
#define NFSSCOPE_PLUGIN_H
#include <epan/packet.h>

#include "capture_state.h"

/* The state of the capture being dissected (one at a time in a process). */
struct capture_state *nfsscope_capture(void);

/* The "min_severity" preference: findings less severe get no expert item. */
uint8_t nfsscope_min_severity(void);

/* Adds the nfsscope subtree and expert infos of a recorded frame (plugin_tree.c). */
void nfsscope_tree(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, struct capture_state *cs,
                   const struct frame_rec *r);

/* Registers -z nfsscope,sessions and -z nfsscope,findings (plugin_stats.c). */
void nfsscope_register_stats(void);

#endif
