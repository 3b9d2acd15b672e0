/* The activity name table (activity.h), expanded once so every user shares
 * the same strings. */
#include "config.h"
#include "cpu/activity.h"

#include <stddef.h>

#define NAMES_ROW(id, key, trace, label) [CORE_ACT_##id] = { key, trace, label },
const struct core_activity_names core_activity_names[CORE_NACTS] = {
	CORE_ACTIVITIES(NAMES_ROW) CORE_STATES(NAMES_ROW)
};

const char *core_activity_name(enum core_activity a)
{
	return (unsigned)a < CORE_NACTS ? core_activity_names[a].trace : "?";
}
