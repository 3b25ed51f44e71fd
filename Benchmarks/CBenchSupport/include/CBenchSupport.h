#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H
#include <stddef.h>

/// Bytes the allocator has handed out and not taken back (mallinfo2's
/// uordblks): what a benchmark counts as heap in use.
size_t bench_heap_in_use(void);

#endif
