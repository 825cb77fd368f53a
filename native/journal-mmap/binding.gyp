{
  "targets": [
    {
      "target_name": "journal_mmap",
      "sources": ["journal_mmap.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    }
  ]
}
