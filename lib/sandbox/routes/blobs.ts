/**
 * Asset bytes at `file.url`. The URL carries an unguessable key and is the credential, so it is
 * served without a token — clients fetch it with a plain GET, as they would a signed URL. The
 * bytes are someone's upload, so they are served by the user-content rule
 * (lib/sandbox/shared/user_content.ts): raster images inline, everything else as a download,
 * never as a document that runs in the sandbox's origin.
 */
import type { RouteTable } from "../shared/http.ts";
import { notFound } from "../shared/problem.ts";
import { row } from "../shared/state.ts";
import { userContentHeaders } from "../shared/user_content.ts";

interface BlobRow {
  filename: string;
  content_type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Registers the blob download route. */
export function blobRoutes(table: RouteTable): void {
  table.public("GET", "/blobs/:key/:filename", (ctx) => {
    const blob = row<BlobRow>(
      ctx.state.db.prepare("SELECT filename, content_type, bytes FROM blobs WHERE key = ?")
        .get(ctx.params.key),
    );
    if (!blob) throw notFound("blob");
    const headers = userContentHeaders(blob.content_type, blob.filename);
    headers.set("content-length", String(blob.bytes.byteLength));
    return new Response(blob.bytes, { status: 200, headers });
  });
}
