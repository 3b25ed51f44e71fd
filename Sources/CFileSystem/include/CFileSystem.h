#ifndef CHECKLISTS_CFILESYSTEM_H
#define CHECKLISTS_CFILESYSTEM_H

// Linux file calls that glibc declares only under _GNU_SOURCE, which Swift's
// Glibc module is imported without. Each returns what the system call does
// (0, or -1 with errno set).

/// Swaps the names `from` and `to` atomically (renameat2 with RENAME_EXCHANGE).
int checklists_exchange(const char *from, const char *to);

/// Takes a write lease on `fd` (fcntl F_SETLEASE, F_WRLCK): granted only when
/// no other open file description refers to the file. A lease break is
/// signalled with SIGIO, so the first call ignores SIGIO if it still has its
/// default action (which would end the process).
int checklists_take_write_lease(int fd);

/// Releases the lease on `fd` (fcntl F_SETLEASE, F_UNLCK).
int checklists_release_lease(int fd);

#endif
