// The call journal's memory-mapped file (src/store/journal-mmap.ts): reserves a journal file's
// blocks on disk and maps it shared and writable, so the gateway appends a call with a copy into
// memory instead of a write(2). Pages of a shared file mapping live in the operating system's page
// cache, so a line copied into them survives a kill -9 of the process exactly as a finished write does.
//
// map(fd, bytes)  -> ArrayBuffer over the whole file (the file is first given `bytes` of reserved,
//                    zero-filled space, so a full disk fails here and never as SIGBUS on a later copy).
//                    Only on file systems where a reservation really holds blocks for later writes
//                    (ext2/3/4, xfs, tmpfs); on others (copy-on-write, network) it throws ENOTSUP.
// unmap(buffer)   -> detaches the ArrayBuffer (every view of it becomes empty, so no later access can
//                    touch the mapping); the pages are unmapped when V8 releases its backing store.
// Linux only: elsewhere map() throws and the journal appends with write(2).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif
#include <node_api.h>

static napi_value throw_errno(napi_env env, const char* what, int code) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", what, strerror(code));
  napi_value error, text, code_value;
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, NULL, text, &error);
  napi_create_int32(env, code, &code_value);
  napi_set_named_property(env, error, "errno", code_value);
  napi_throw(env, error);
  return NULL;
}

static void release_mapping(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) {
    napi_throw_type_error(env, NULL, "map(fd, bytes) needs a file descriptor and a size");
    return NULL;
  }
  int32_t fd;
  int64_t bytes;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || napi_get_value_int64(env, argv[1], &bytes) != napi_ok || fd < 0 || bytes <= 0) {
    napi_throw_type_error(env, NULL, "map(fd, bytes): fd must be an open descriptor and bytes a positive size");
    return NULL;
  }
#ifdef __linux__
  struct statfs fs;
  if (fstatfs(fd, &fs) != 0) return throw_errno(env, "checking the journal's file system", errno);
  // ext2/3/4, xfs, tmpfs: file systems whose fallocate reserves the blocks later writes use.
  unsigned long type = (unsigned long)fs.f_type;
  if (type != 0xEF53UL && type != 0x58465342UL && type != 0x01021994UL) {
    char what[96];
    snprintf(what, sizeof what, "the journal's file system (type 0x%lx) is not one mapped files are safe on", type);
    return throw_errno(env, what, ENOTSUP);
  }
  int reserved = posix_fallocate(fd, 0, (off_t)bytes);
  if (reserved != 0) return throw_errno(env, "reserving the journal file", reserved);
  void* address = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (address == MAP_FAILED) return throw_errno(env, "mapping the journal file", errno);
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, address, (size_t)bytes, release_mapping, (void*)(uintptr_t)bytes, &buffer) != napi_ok) {
    munmap(address, (size_t)bytes);
    napi_throw_error(env, NULL, "could not wrap the mapped journal file in an ArrayBuffer");
    return NULL;
  }
  return buffer;
#else
  return throw_errno(env, "memory-mapped journals are built for Linux only", ENOTSUP);
#endif
}

static napi_value unmap_file(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, "unmap(buffer) needs the ArrayBuffer map() returned");
    return NULL;
  }
  bool is_buffer = false;
  napi_is_arraybuffer(env, argv[0], &is_buffer);
  if (!is_buffer) {
    napi_throw_type_error(env, NULL, "unmap(buffer) needs the ArrayBuffer map() returned");
    return NULL;
  }
  if (napi_detach_arraybuffer(env, argv[0]) != napi_ok) {
    napi_throw_error(env, NULL, "could not detach the mapped journal buffer");
    return NULL;
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value map_fn, unmap_fn;
  napi_create_function(env, "map", NAPI_AUTO_LENGTH, map_file, NULL, &map_fn);
  napi_create_function(env, "unmap", NAPI_AUTO_LENGTH, unmap_file, NULL, &unmap_fn);
  napi_set_named_property(env, exports, "map", map_fn);
  napi_set_named_property(env, exports, "unmap", unmap_fn);
  return exports;
}
