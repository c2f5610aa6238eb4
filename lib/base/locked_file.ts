/**
 * An exclusive `flock` on a file that is replaced by atomic renames (a turn-record chain that
 * retention rewrites, a working-state file saved through a temp): the lock belongs to the inode
 * the descriptor was opened on, so after waiting for it the holder checks that the name still
 * points at that inode, and opens the file again when a rename moved the name meanwhile. The
 * lock is released by closing the file, or by the kernel when the process dies.
 */

/**
 * Opens `path` with `options` and takes an exclusive lock on the file the name points at. The
 * caller closes the file to release it.
 */
export async function openLocked(path: string, options: Deno.OpenOptions): Promise<Deno.FsFile> {
  for (;;) {
    const file = await Deno.open(path, options);
    try {
      await file.lock(true);
      const [held, named] = [await file.stat(), await Deno.stat(path).catch(() => undefined)];
      if (named !== undefined && held.ino === named.ino && held.dev === named.dev) return file;
    } catch (error) {
      file.close();
      throw error;
    }
    file.close();
  }
}
