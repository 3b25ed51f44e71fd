// libfcgi's request-level API only; fcgi_stdio.h redefines stdio and must stay out.
#include <fcgiapp.h>
