// libqrencode's one header; the QRCode target is its only user.
#include <qrencode.h>
