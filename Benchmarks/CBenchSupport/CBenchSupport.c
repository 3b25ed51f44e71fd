#include "CBenchSupport.h"
#include <malloc.h>

size_t bench_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks;
}
