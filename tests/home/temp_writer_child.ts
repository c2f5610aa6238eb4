/**
 * A writer for the stranded-temp tests: saves `<bytes>` bytes to `<target>` through the real
 * atomic write, but stops half-way through writing its temp — after the first half is on disk —
 * and says so with `<gate>/writing`, then waits for `<gate>/go` before writing the rest, syncing
 * and renaming. The parent SIGKILLs it there (a killed save) or lets it finish (a live writer).
 * Usage: temp_writer_child.ts <target> <bytes> <gate-dir>
 */
import { join } from "node:path";
import { atomicWrite, denoAtomicWriteOps } from "../../lib/base/atomic_write.ts";

const [target, size, gate] = Deno.args;

async function waitFor(path: string): Promise<void> {
  for (;;) {
    try {
      await Deno.stat(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

const data = new Uint8Array(Number(size)).fill(0x61);
await atomicWrite(target, data, {
  ...denoAtomicWriteOps,
  async writeSynced(path, bytes) {
    const file = await Deno.open(path, { write: true, createNew: true });
    try {
      const half = Math.floor(bytes.length / 2);
      let written = 0;
      while (written < half) written += await file.write(bytes.subarray(written, half));
      // Named by a rename, so the parent never reads the note half-written.
      await Deno.writeTextFile(join(gate, "writing.part"), path);
      await Deno.rename(join(gate, "writing.part"), join(gate, "writing"));
      await waitFor(join(gate, "go"));
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
  },
});
