/* The queued spinlock's slow path (kernel/locking/qspinlock.c, without the
 * pending bit: see bounce.h), compiled once for every C file of a program
 * that takes a spinlock_t. Name it in "program" beside them. */
#define BOUNCE_QSPINLOCK_IMPL
#include <bounce.h>
