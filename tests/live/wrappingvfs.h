#pragma once

// A SQLite VFS over the default one, for the tests of the order store (tst_walcheckpoint,
// tst_storeguarantees): registered under a name as the process's default (Qt's QSQLITE opens its
// files with the default VFS), it forwards every call of every file to the real VFS, after asking
// the test's hooks about the writes and syncs of each file. A hook sees which file it is (the
// database, its log, ...) and may count the call or fail it.
#include <sqlite3.h>

#include <functional>

namespace retrylab::test {

// One file opened through the wrapping VFS; the real file lives right after this struct.
struct WrappedFile
{
    sqlite3_file base;
    sqlite3_file *real;
    int openFlags; // SQLITE_OPEN_MAIN_DB, SQLITE_OPEN_WAL, ... as the file was opened

    bool isMainDb() const { return openFlags & SQLITE_OPEN_MAIN_DB; }
    bool isLog() const { return openFlags & SQLITE_OPEN_WAL; }
};

// What the test asks of each call: SQLITE_OK forwards it, any other code is answered instead.
// Set them before the first database opens; they may run on any thread (a checkpoint thread).
struct VfsHooks
{
    std::function<int(const WrappedFile &)> write;
    std::function<int(const WrappedFile &)> sync;
};

namespace wrappingvfs {

inline sqlite3_vfs *g_real = nullptr;
inline sqlite3_vfs g_wrapping;
inline VfsHooks g_hooks;

inline sqlite3_file *realOf(sqlite3_file *f)
{
    return reinterpret_cast<WrappedFile *>(f)->real;
}
inline int ask(const std::function<int(const WrappedFile &)> &hook, sqlite3_file *f)
{
    return hook ? hook(*reinterpret_cast<WrappedFile *>(f)) : SQLITE_OK;
}

inline int fileClose(sqlite3_file *f) { return realOf(f)->pMethods->xClose(realOf(f)); }
inline int fileRead(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return realOf(f)->pMethods->xRead(realOf(f), b, n, o); }
inline int fileWrite(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
    const int rc = ask(g_hooks.write, f);
    return rc != SQLITE_OK ? rc : realOf(f)->pMethods->xWrite(realOf(f), b, n, o);
}
inline int fileTruncate(sqlite3_file *f, sqlite3_int64 n) { return realOf(f)->pMethods->xTruncate(realOf(f), n); }
inline int fileSync(sqlite3_file *f, int flags)
{
    const int rc = ask(g_hooks.sync, f);
    return rc != SQLITE_OK ? rc : realOf(f)->pMethods->xSync(realOf(f), flags);
}
inline int fileSize(sqlite3_file *f, sqlite3_int64 *n) { return realOf(f)->pMethods->xFileSize(realOf(f), n); }
inline int fileLock(sqlite3_file *f, int l) { return realOf(f)->pMethods->xLock(realOf(f), l); }
inline int fileUnlock(sqlite3_file *f, int l) { return realOf(f)->pMethods->xUnlock(realOf(f), l); }
inline int fileReserved(sqlite3_file *f, int *r) { return realOf(f)->pMethods->xCheckReservedLock(realOf(f), r); }
inline int fileControl(sqlite3_file *f, int op, void *a) { return realOf(f)->pMethods->xFileControl(realOf(f), op, a); }
inline int fileSector(sqlite3_file *f) { return realOf(f)->pMethods->xSectorSize(realOf(f)); }
inline int fileDevice(sqlite3_file *f) { return realOf(f)->pMethods->xDeviceCharacteristics(realOf(f)); }
inline int shmMap(sqlite3_file *f, int i, int s, int e, void volatile **p) { return realOf(f)->pMethods->xShmMap(realOf(f), i, s, e, p); }
inline int shmLock(sqlite3_file *f, int o, int n, int fl) { return realOf(f)->pMethods->xShmLock(realOf(f), o, n, fl); }
inline void shmBarrier(sqlite3_file *f) { realOf(f)->pMethods->xShmBarrier(realOf(f)); }
inline int shmUnmap(sqlite3_file *f, int d) { return realOf(f)->pMethods->xShmUnmap(realOf(f), d); }
inline int fileFetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p) { return realOf(f)->pMethods->xFetch(realOf(f), o, n, p); }
inline int fileUnfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return realOf(f)->pMethods->xUnfetch(realOf(f), o, p); }

inline const sqlite3_io_methods g_methods = {3,          fileClose,   fileRead,   fileWrite,    fileTruncate, fileSync,
                                             fileSize,   fileLock,    fileUnlock, fileReserved, fileControl,  fileSector,
                                             fileDevice, shmMap,      shmLock,    shmBarrier,   shmUnmap,     fileFetch,
                                             fileUnfetch};

inline int vfsOpen(sqlite3_vfs *, sqlite3_filename name, sqlite3_file *f, int flags, int *outFlags)
{
    auto *file = reinterpret_cast<WrappedFile *>(f);
    file->real = reinterpret_cast<sqlite3_file *>(file + 1);
    file->openFlags = flags;
    const int rc = g_real->xOpen(g_real, name, file->real, flags, outFlags);
    file->base.pMethods = file->real->pMethods ? &g_methods : nullptr;
    return rc;
}

} // namespace wrappingvfs

// Registers the wrapping VFS under `name` as the default, with `hooks` asked of every file; once
// per process (a test's initTestCase()).
inline void installWrappingVfs(const char *name, VfsHooks hooks)
{
    using namespace wrappingvfs;
    g_hooks = std::move(hooks);
    g_real = sqlite3_vfs_find(nullptr);
    g_wrapping = *g_real;
    g_wrapping.zName = name;
    g_wrapping.szOsFile = int(sizeof(WrappedFile)) + g_real->szOsFile;
    g_wrapping.xOpen = vfsOpen;
    g_wrapping.pNext = nullptr;
    sqlite3_vfs_register(&g_wrapping, 1);
}

} // namespace retrylab::test
