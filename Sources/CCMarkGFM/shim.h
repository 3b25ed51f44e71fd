// cmark-gfm and its core extensions (tasklist, strikethrough); the
// MarkdownOutline target is their only user.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
