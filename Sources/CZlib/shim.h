// zlib's deflate and inflate, for gzip: the static files at `generate` and kept pages.
#include <zlib.h>
