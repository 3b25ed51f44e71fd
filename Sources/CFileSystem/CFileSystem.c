#define _GNU_SOURCE
#include "CFileSystem.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

int checklists_exchange(const char *from, const char *to) {
  return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
}

static pthread_once_t sigio_once = PTHREAD_ONCE_INIT;

static void ignore_sigio_unless_handled(void) {
  struct sigaction current;
  if (sigaction(SIGIO, NULL, &current) == 0 && current.sa_handler == SIG_DFL) {
    signal(SIGIO, SIG_IGN);
  }
}

int checklists_take_write_lease(int fd) {
  pthread_once(&sigio_once, ignore_sigio_unless_handled);
  return fcntl(fd, F_SETLEASE, F_WRLCK);
}

int checklists_release_lease(int fd) { return fcntl(fd, F_SETLEASE, F_UNLCK); }
